package dev.orderly.engine.internal;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.RequestPlan;
import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Stream;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The rules every {@link RequestScope} keeps, checked on each implementation this JVM can load, whichever one the
 * engine chose: {@link ThreadsRequestScope} always, {@link StructuredRequestScope} where preview features are on. The
 * engine-level tests exercise only the chosen scope of each run of the suite; these pin the rules of both in every
 * run (and let mutation testing, which runs one JVM configuration, see both).
 *
 * <p>The scope runs on an owner thread of its own, so that a broken rule (a scope that never ends) fails within
 * seconds with a message instead of hanging; every job and walker here waits only until it is interrupted.
 *
 * <p>Equivalent mutant, not tested: removing the {@code scheduler.stop()} that {@link StructuredRequestScope#run}
 * calls when the owner is interrupted while it launches. The owner then re-asserts the interrupt and calls
 * {@code join}, which either throws at once, and its catch stops the scheduler (checked here, in
 * {@code anInterruptOfTheOwnerWhileItWaitsForTheThreadsCancelsEveryThreadAndThrows}), or returns because the scope was
 * already cancelled, which only {@code onComplete} does, after it stopped the scheduler itself. Either way the
 * scheduler is stopped before {@code run} throws; the first call only makes it a moment sooner.
 *
 * <p>Equivalent mutants of {@link ThreadsRequestScope}, not tested:
 * <ul>
 *   <li>Removing the {@code unlock} after the owner's last read of the first failure in {@code run}. The owner then
 *       ends holding the lock, but it has joined every thread of the scope by then, so no thread asks for it again,
 *       and a scope serves one {@code run}. (The {@code unlock} after the owner's wait in {@code awaitEveryThread} is
 *       not so: the last task to end takes the lock to signal the owner after it took the count of running tasks to
 *       0, so an owner that saw the 0 first and kept the lock would wait forever in its join for that task. Whether
 *       a run shows it depends on that race, and a test's time-out reports it when it does.)
 *   <li>Removing the {@code unlock} after the last task's signal in {@code runTask}, in the copies javac makes of it
 *       for the exceptional paths: they run only if {@code Condition.signal} throws, or the catch block's own
 *       {@code lock} throws, i.e. on an {@code OutOfMemoryError} at that instruction, which no test can cause there.
 *       The copy on the normal path is killed by every test here: the owner never gets the lock back.
 *   <li>In {@code dropEnded}, looking through the whole list of started threads one fork later ({@code >=} as
 *       {@code >}), or setting the size of the next look-through lower ({@code 2 * size + COMPACT_SLACK} as
 *       {@code 2 * size - COMPACT_SLACK}, down to a look-through at every fork): each changes how often the owner
 *       looks, not what it drops. An ended thread is still dropped by a look-through at most a few forks later
 *       ({@code theThreadOfAnEndedJobBehindALongOneIsNotKeptWhileTheRequestGoesOn}); more looks cost only time.
 * </ul>
 * The removal of {@code joinAll} or of its {@code Thread.join} calls in {@code ThreadsRequestScope} (the owner then
 * returns while the last thread is a few instructions from its end) is seen by {@link Run}'s check, taken the moment
 * {@code run} ends, that no thread of the scope is alive; it catches the mutant only when the owner wins that race, so
 * {@code noThreadIsAliveTheMomentRunEndsInManyShortRequests} runs 200 short requests (in 4 hand runs with the call of
 * {@code joinAll} removed, it failed by request 48 each time; PIT's runs, slowed by its coverage probes, do not always
 * see it).
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class RequestScopeRulesTest {

    /** 10 segments of 1 stage, 2 workers: the owner hands out two jobs, then waits for a worker to free up. */
    private static final RequestPlan PLAN = new RequestPlan(0, 10, 1, 2);
    private static final String REQUEST = "scope-rules";

    /** Both request scopes (the structured one when this JVM can load it); other scope tests use it too. */
    static Stream<Arguments> scopes() {
        RequestScope.Factory structured = RequestScopes.loadStructured().factory();
        return structured == null
                ? Stream.of(Arguments.of("threads", (RequestScope.Factory) ThreadsRequestScope::new))
                : Stream.of(Arguments.of("threads", (RequestScope.Factory) ThreadsRequestScope::new),
                        Arguments.of("structured", structured));
    }

    /** One request's scope, run by an owner thread of its own, with every thread it makes and every interrupt seen. */
    private static final class Run {
        final Scheduler scheduler = new Scheduler(PLAN, 4);
        final ConcurrentLinkedQueue<Thread> threads = new ConcurrentLinkedQueue<>();
        final Set<String> interrupted = ConcurrentHashMap.newKeySet();
        final CountDownLatch jobsStarted = new CountDownLatch(2);
        final CompletableFuture<Optional<Throwable>> outcome = new CompletableFuture<>();
        final AtomicReference<Thread> owner = new AtomicReference<>();
        /** Taken by the owner the moment run returns or throws: the scope's threads still alive, its interrupt flag. */
        volatile List<Thread> aliveWhenRunEnded;
        volatile boolean ownerInterruptedWhenRunEnded;

        final RequestScope scope;

        Run(RequestScope.Factory factory) {
            scope = factory.open(REQUEST, scheduler, threads::add);
        }

        void start(Callable<Void> walker, Function<Launch, Callable<Void>> jobs) {
            start(Thread.ofVirtual(), walker, jobs);
        }

        void start(Thread.Builder ownerBuilder, Callable<Void> walker, Function<Launch, Callable<Void>> launches) {
            RequestScope.Jobs jobs = (key, prior) -> launches.apply(new Launch(key, prior));
            owner.set(ownerBuilder.name("scope-rules-owner").start(() -> {
                Optional<Throwable> result;
                try {
                    result = scope.run(walker, jobs);
                } catch (Throwable t) {
                    runEnded();
                    outcome.completeExceptionally(t);
                    return;
                }
                runEnded();
                outcome.complete(result);
            }));
        }

        private void runEnded() {
            ownerInterruptedWhenRunEnded = Thread.currentThread().isInterrupted();
            aliveWhenRunEnded = threads.stream().filter(Thread::isAlive).toList();
        }

        /** Waits until the owner is parked (in the scope's wait for its threads, where the test puts it). */
        void awaitOwnerWaiting(String where) {
            await("the owner waits " + where).atMost(Duration.ofSeconds(5))
                    .until(() -> owner.get().getState() == Thread.State.WAITING);
        }

        /** Waits, costing no CPU, until the thread is interrupted; records who was, then ends with {@code echo}. */
        Void blockUntilInterrupted(String who, Exception echo) throws Exception {
            try {
                new CountDownLatch(1).await();
                throw new AssertionError(who + " was released without an interrupt");
            } catch (InterruptedException e) {
                interrupted.add(who);
                throw echo;
            }
        }

        /**
         * Like {@link #blockUntilInterrupted}, but slow to wind up: after the interrupt it waits for {@code release}
         * (10 s at most) before it ends by rethrowing, so that {@code run} must wait for it.
         */
        Void blockUntilInterruptedThenWindUpSlowly(String who, CountDownLatch release) throws InterruptedException {
            try {
                new CountDownLatch(1).await();
                throw new AssertionError(who + " was released without an interrupt");
            } catch (InterruptedException e) {
                interrupted.add(who);
                assertTrue(release.await(10, TimeUnit.SECONDS), "the test never released " + who);
                throw e;
            }
        }

        /** A job that counts itself started and then waits to be interrupted. */
        Callable<Void> waitingJob(Launch launch) {
            return () -> {
                jobsStarted.countDown();
                return blockUntilInterrupted("job " + launch.key().segment(), new InterruptedException("echo"));
            };
        }

        void awaitJobsStarted() throws InterruptedException {
            assertTrue(jobsStarted.await(5, TimeUnit.SECONDS), "the owner did not start two jobs within 5 s");
        }

        Optional<Throwable> result(String what) throws Exception {
            try {
                return outcome.get(5, TimeUnit.SECONDS);
            } catch (TimeoutException e) {
                owner.get().interrupt();
                throw new AssertionError("run did not return within 5 s " + what, e);
            } catch (ExecutionException e) {
                throw new AssertionError("run threw instead of returning " + what, e.getCause());
            }
        }

        Throwable thrown(String what) throws Exception {
            try {
                Optional<Throwable> returned = outcome.get(5, TimeUnit.SECONDS);
                throw new AssertionError("run returned " + returned + " instead of throwing " + what);
            } catch (TimeoutException e) {
                owner.get().interrupt();
                throw new AssertionError("run did not end within 5 s " + what, e);
            } catch (ExecutionException e) {
                return e.getCause();
            }
        }

        /** Every thread of the scope has ended, and each carried the request's scope name. */
        void assertNothingLeftRunning() {
            List<Thread> made = List.copyOf(threads);
            assertFalse(made.isEmpty(), "the scope made no thread");
            assertEquals(List.of(), aliveWhenRunEnded, "threads of the scope still alive the moment run ended");
            for (Thread thread : made) {
                assertFalse(thread.isAlive(), thread + " outlived run");
                assertEquals("orderly-" + REQUEST, thread.getName());
            }
        }

        /** The scheduler was stopped: the walker's wait answers STOPPED at once (it would otherwise wait on). */
        void assertSchedulerStopped() throws Exception {
            CompletableFuture<Scheduler.OutputWait> wait = new CompletableFuture<>();
            Thread.ofVirtual().start(() -> {
                try {
                    wait.complete(scheduler.awaitOutput(PLAN.startSegment(), Deadline.after(Duration.ofSeconds(2))));
                } catch (Throwable t) {
                    wait.completeExceptionally(t);
                }
            });
            assertEquals(Scheduler.OutputWait.STOPPED, wait.get(5, TimeUnit.SECONDS), "the scheduler was not stopped");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scopes")
    void theFirstFailureIsReturnedAndInterruptsEveryOtherThreadWhoseEchoIsNotReported(String name,
            RequestScope.Factory factory) throws Exception {
        assertAFailureInterruptsEveryOtherThread(factory, run -> { });
    }

    /**
     * A job that fails the request in the scheduler first (so the owner, handed nothing more, goes on to wait for the
     * threads) and only then throws: its failure must still reach the owner there and interrupt every other thread.
     * (The threads scope's owner does the interrupting, woken by the cancellation's signal.)
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("scopes")
    void aFailureThatComesWhileTheOwnerWaitsForTheThreadsInterruptsEveryOtherThread(String name,
            RequestScope.Factory factory) throws Exception {
        assertAFailureInterruptsEveryOtherThread(factory, run -> {
            run.scheduler.jobFailed();
            await("the owner waits for the threads, not for a unit").atMost(Duration.ofSeconds(5)).until(() -> {
                Thread owner = run.owner.get();
                return owner.getState() == Thread.State.WAITING && Arrays.stream(owner.getStackTrace())
                        .noneMatch(frame -> frame.getMethodName().equals("awaitNextJobs"));
            });
        });
    }

    /**
     * The walker and job 0 wait until interrupted; the second job, once job 0 waits, runs {@code beforeTheFailure} and
     * throws. That failure is what {@code run} returns (not an echo of it), and every other thread was interrupted.
     */
    private static void assertAFailureInterruptsEveryOtherThread(RequestScope.Factory factory,
            Consumer<Run> beforeTheFailure) throws Exception {
        IllegalStateException failure = new IllegalStateException("the first failure");
        CountDownLatch firstJobWaits = new CountDownLatch(1);
        Run run = new Run(factory);
        run.start(() -> run.blockUntilInterrupted("walker", new IllegalStateException("the walker's echo")),
                launch -> launch.key().segment() == 0
                        ? () -> {
                            firstJobWaits.countDown();
                            return run.blockUntilInterrupted("job 0", new IllegalStateException("job 0's echo"));
                        }
                        : () -> {
                            assertTrue(firstJobWaits.await(5, TimeUnit.SECONDS), "job 0 never started");
                            beforeTheFailure.accept(run);
                            throw failure;
                        });

        Optional<Throwable> result = run.result("after a job failed");

        assertSame(failure, result.orElseThrow(), "the failure that cancelled the scope, not an echo of it");
        assertEquals(Set.of("walker", "job 0"), run.interrupted);
        run.assertNothingLeftRunning();
        run.assertSchedulerStopped();
    }

    /**
     * The threads' last instructions race the owner's return, so a scope that returned without joining them would be
     * caught only now and then: many short requests, on virtual and platform owners, each checked the moment it ends.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("scopes")
    void noThreadIsAliveTheMomentRunEndsInManyShortRequests(String name, RequestScope.Factory factory)
            throws Exception {
        for (int i = 0; i < 200; i++) {
            Run run = new Run(factory);
            run.start(i % 2 == 0 ? Thread.ofVirtual() : Thread.ofPlatform(), () -> {
                run.awaitJobsStarted();
                return null;
            }, launch -> run.waitingJob(launch));
            assertEquals(Optional.empty(), run.result("in request " + i));
            assertEquals(List.of(), run.aliveWhenRunEnded, "threads alive the moment request " + i + " ended");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scopes")
    void theWalkersNormalReturnCancelsTheJobsLeftAlive(String name, RequestScope.Factory factory) throws Exception {
        Run run = new Run(factory);
        run.start(() -> {
            run.awaitJobsStarted();
            return null; // every segment delivered, as far as the scope can tell
        }, launch -> run.waitingJob(launch));

        Optional<Throwable> result = run.result("after the walker returned");

        assertEquals(Optional.empty(), result, "nothing failed: the jobs' interrupts are echoes of the cancellation");
        assertEquals(Set.of("job 0", "job 1"), run.interrupted);
        run.assertNothingLeftRunning();
        run.assertSchedulerStopped();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scopes")
    void runReturnsOnlyOnceEveryThreadHasEnded(String name, RequestScope.Factory factory) throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        Run run = new Run(factory);
        run.start(() -> {
            run.awaitJobsStarted();
            throw new IllegalStateException("the walker failed");
        }, launch -> () -> {
            run.jobsStarted.countDown();
            return run.blockUntilInterruptedThenWindUpSlowly("job " + launch.key().segment(), release);
        });

        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(3))
                .untilAsserted(() -> assertFalse(run.outcome.isDone(), "run ended while jobs were still running"));
        release.countDown();

        Throwable failure = run.result("once the last job ended").orElseThrow();
        assertEquals("the walker failed", failure.getMessage());
        run.assertNothingLeftRunning();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scopes")
    void anInterruptOfTheOwnerWhileItLaunchesCancelsEveryThreadAndThrows(String name, RequestScope.Factory factory)
            throws Exception {
        Run run = new Run(factory);
        run.start(() -> run.blockUntilInterrupted("walker", new InterruptedException("echo")),
                launch -> run.waitingJob(launch));
        run.awaitJobsStarted();

        run.owner.get().interrupt(); // it waits in awaitNextJob for a worker to free up

        assertInstanceOf(InterruptedException.class, run.thrown("InterruptedException"));
        assertEquals(Set.of("walker", "job 0", "job 1"), run.interrupted);
        run.assertNothingLeftRunning();
        run.assertSchedulerStopped();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scopes")
    void anInterruptOfTheOwnerWhileItWaitsForTheThreadsCancelsEveryThreadAndThrows(String name,
            RequestScope.Factory factory) throws Exception {
        CountDownLatch aJobStarted = new CountDownLatch(1);
        Run run = new Run(factory);
        run.start(() -> run.blockUntilInterrupted("walker", new InterruptedException("echo")),
                launch -> () -> {
                    // The request failed (nothing more is handed out) but this job has not ended: the owner stops
                    // launching and waits for the scope's threads.
                    run.scheduler.jobFailed();
                    aJobStarted.countDown();
                    String job = "job " + launch.key().segment();
                    return run.blockUntilInterrupted(job, new InterruptedException("echo"));
                });
        assertTrue(aJobStarted.await(5, TimeUnit.SECONDS), "no job started within 5 s");
        // The owner has nothing more to launch: it is, or soon is, in its wait for every thread to end.
        await().atMost(Duration.ofSeconds(5)).until(() -> run.owner.get().getState() == Thread.State.WAITING);

        run.owner.get().interrupt();

        assertInstanceOf(InterruptedException.class, run.thrown("InterruptedException"));
        assertTrue(run.interrupted.contains("walker"), "the walker was not interrupted: " + run.interrupted);
        run.assertNothingLeftRunning();
        run.assertSchedulerStopped();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scopes")
    void anOwnerThatBreaksWhileLaunchingLeavesNothingRunningAndThrowsItsError(String name,
            RequestScope.Factory factory) throws Exception {
        IllegalStateException broken = new IllegalStateException("no job could be made");
        CountDownLatch firstJobWaits = new CountDownLatch(1);
        Run run = new Run(factory);
        run.start(() -> run.blockUntilInterrupted("walker", new InterruptedException("echo")),
                launch -> {
                    if (launch.key().segment() == 0) {
                        return () -> {
                            firstJobWaits.countDown();
                            return run.blockUntilInterrupted("job 0", new InterruptedException("echo"));
                        };
                    }
                    try {
                        assertTrue(firstJobWaits.await(5, TimeUnit.SECONDS), "job 0 never started");
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    throw broken;
                });

        assertSame(broken, run.thrown("the owner's own error"));
        assertEquals(Set.of("walker", "job 0"), run.interrupted);
        run.assertNothingLeftRunning();
        assertFalse(run.ownerInterruptedWhenRunEnded, "nobody interrupted the owner, yet it came back interrupted");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scopes")
    void anOwnerThatBreaksAndIsInterruptedWhileItWaitsForTheThreadsThrowsItsErrorWithItsInterruptSet(String name,
            RequestScope.Factory factory) throws Exception {
        IllegalStateException broken = new IllegalStateException("no job could be made");
        CountDownLatch release = new CountDownLatch(1);
        Run run = new Run(factory);
        // The walker is slow to wind up: the owner waits for it, and is interrupted meanwhile.
        run.start(() -> run.blockUntilInterruptedThenWindUpSlowly("walker", release), launch -> {
            throw broken;
        });
        await("the broken owner cancels the walker").atMost(Duration.ofSeconds(5))
                .until(() -> run.interrupted.contains("walker"));
        run.awaitOwnerWaiting("for the walker to end");

        run.owner.get().interrupt();
        // The owner must go on waiting for the walker: run ends only once it is released.
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(3))
                .untilAsserted(() -> assertFalse(run.outcome.isDone(), "run ended while the walker was running"));
        release.countDown();

        assertSame(broken, run.thrown("the owner's own error"));
        run.assertNothingLeftRunning();
        assertTrue(run.ownerInterruptedWhenRunEnded, "the owner's interrupt was swallowed");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scopes")
    void theLastThreadToEndWakesTheOwnerThatWaitsForIt(String name, RequestScope.Factory factory) throws Exception {
        Map<Long, CountDownLatch> release = Map.of(0L, new CountDownLatch(1), 1L, new CountDownLatch(1));
        Map<Long, Thread> jobThreads = new ConcurrentHashMap<>();
        Run run = new Run(factory);
        run.start(() -> {
            run.awaitJobsStarted();
            return null; // cancels the two jobs; each winds up only when the test releases it
        }, launch -> () -> {
            long segment = launch.key().segment();
            jobThreads.put(segment, Thread.currentThread());
            run.jobsStarted.countDown();
            return run.blockUntilInterruptedThenWindUpSlowly("job " + segment, release.get(segment));
        });
        await("the walker's return cancels both jobs").atMost(Duration.ofSeconds(5))
                .until(() -> run.interrupted.size() == 2);
        run.awaitOwnerWaiting("for the two jobs to end");

        // One job ends while the other still runs: the owner must wait on ...
        release.get(0L).countDown();
        await("job 0 ends").atMost(Duration.ofSeconds(5)).until(() -> !jobThreads.get(0L).isAlive());
        run.awaitOwnerWaiting("for the last job to end");
        assertFalse(run.outcome.isDone(), "run ended while job 1 was running");
        // ... and the end of the last one, alone, must wake it.
        release.get(1L).countDown();

        assertEquals(Optional.empty(), run.result("once the last job ended"));
        run.assertNothingLeftRunning();
    }

    /**
     * A long request runs many jobs one after the other: the scope must not keep every thread it started until the
     * request ends. Seen through a weak reference to the first job's thread, which must become collectable while a
     * later job runs.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("scopes")
    void theThreadOfAnEndedJobIsNotKeptWhileTheRequestGoesOn(String name, RequestScope.Factory factory)
            throws Exception {
        assertAnEndedJobsThreadIsCollectedWhileALaterJobRuns(factory, PLAN, 1, 0, 2);
    }

    /**
     * The same with the first job still running, ahead of every job that ended after it: the threads of those must
     * not be kept until it ends. (The threads scope drops at each fork the ended threads at the head of those it
     * started, and looks through them all once they are {@link ThreadsRequestScope#COMPACT_SLACK} or more.)
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("scopes")
    void theThreadOfAnEndedJobBehindALongOneIsNotKeptWhileTheRequestGoesOn(String name,
            RequestScope.Factory factory) throws Exception {
        int checkingLaunch = 2 * ThreadsRequestScope.COMPACT_SLACK + 8;
        assertAnEndedJobsThreadIsCollectedWhileALaterJobRuns(factory, new RequestPlan(0, 100, 1, 2), 0, 1,
                checkingLaunch);
    }

    /**
     * Runs {@code plan} (two workers) with launch {@code blocking} waiting until the scope is cancelled and every other
     * launch before {@code checking} ending at once, freeing its worker; launch {@code checking} waits, while the
     * request goes on, until the thread of launch {@code watched} (one that ended at once) has been collected. The
     * walker returns, cancelling the scope, once it has or 5 s have passed.
     */
    private static void assertAnEndedJobsThreadIsCollectedWhileALaterJobRuns(RequestScope.Factory factory,
            RequestPlan plan, int blocking, int watched, int checking) throws Exception {
        AtomicReference<WeakReference<Thread>> watchedJob = new AtomicReference<>();
        CompletableFuture<Boolean> watchedJobCollected = new CompletableFuture<>();
        AtomicInteger launches = new AtomicInteger();
        Scheduler scheduler = new Scheduler(plan, plan.endSegment() - plan.startSegment());
        // No Run here: its list of the threads made would itself keep the watched job's thread.
        RequestScope scope = factory.open(REQUEST, scheduler, thread -> { });
        Callable<Void> walker = () -> {
            watchedJobCollected.get(10, TimeUnit.SECONDS);
            return null; // cancels the jobs still running
        };
        RequestScope.Jobs jobs = (key, prior) -> {
            int launch = launches.getAndIncrement();
            if (launch == watched + 1 || launch == checking) {
                // On the owner, before it forks the next job and the checking one: the watched job's thread has
                // ended, so every look-through from here on sees it ended. Without the first wait, a loaded machine
                // could keep the watched thread between its jobEnded and its end through every look-through the
                // forks up to the checking one make (it failed so once, in PIT's coverage pass at a load of 11 on
                // 2 cores).
                awaitTheEndOf(watchedJob);
            }
            if (launch == blocking) {
                return () -> {
                    new CountDownLatch(1).await();
                    return null;
                };
            }
            if (launch < checking) {
                return () -> { // ends well at once, freeing its worker
                    if (launch == watched) {
                        watchedJob.set(new WeakReference<>(Thread.currentThread()));
                    }
                    scheduler.jobEnded(key, false, null);
                    return null;
                };
            }
            if (launch > checking) {
                throw new AssertionError("launch " + launch + " after the checking one, whose worker stays taken");
            }
            return () -> {
                try {
                    await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(50)).until(() -> {
                        System.gc();
                        return watchedJob.get().get() == null;
                    });
                    watchedJobCollected.complete(true);
                } catch (ConditionTimeoutException e) {
                    watchedJobCollected.complete(false);
                }
                new CountDownLatch(1).await();
                return null;
            };
        };
        CompletableFuture<Optional<Throwable>> outcome = new CompletableFuture<>();
        Thread.ofVirtual().name("scope-rules-owner").start(() -> {
            try {
                outcome.complete(scope.run(walker, jobs));
            } catch (Throwable t) {
                outcome.completeExceptionally(t);
            }
        });

        assertTrue(watchedJobCollected.get(10, TimeUnit.SECONDS),
                "the thread of launch " + watched + " was still referenced 5 s after it ended, while launch "
                        + checking + " ran");
        assertEquals(Optional.empty(), outcome.get(5, TimeUnit.SECONDS));
    }

    private static void awaitTheEndOf(AtomicReference<WeakReference<Thread>> job) {
        await("the watched job's thread ends").atMost(Duration.ofSeconds(5)).until(() -> {
            WeakReference<Thread> ref = job.get();
            return ref != null && (ref.get() == null || !ref.get().isAlive());
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scopes")
    void aJobThatFailsAfterAnotherEndedWellStillCancelsTheScope(String name, RequestScope.Factory factory)
            throws Exception {
        IllegalStateException failure = new IllegalStateException("the job after");
        AtomicReference<Thread> firstJob = new AtomicReference<>();
        AtomicInteger launches = new AtomicInteger();
        Run run = new Run(factory);
        run.start(() -> run.blockUntilInterrupted("walker", new InterruptedException("echo")), launch -> {
            switch (launches.getAndIncrement()) {
                case 0:
                    return () -> { // ends well at once, freeing its worker
                        firstJob.set(Thread.currentThread());
                        run.scheduler.jobEnded(launch.key(), false, null);
                        return null;
                    };
                case 1:
                    return () -> run.blockUntilInterrupted("second job", new InterruptedException("echo"));
                default:
                    // On the owner, before it forks this job: the first job's thread has ended, so the owner has
                    // something to clean up at this fork.
                    await("the first job's thread ends").atMost(Duration.ofSeconds(5))
                            .until(() -> firstJob.get() != null && !firstJob.get().isAlive());
                    return () -> {
                        throw failure; // its worker stays taken: only the scope's cancellation wakes the owner
                    };
            }
        });

        assertSame(failure, run.result("after the third job failed").orElseThrow());
        assertEquals(Set.of("walker", "second job"), run.interrupted);
        run.assertNothingLeftRunning();
        run.assertSchedulerStopped();
    }
}
