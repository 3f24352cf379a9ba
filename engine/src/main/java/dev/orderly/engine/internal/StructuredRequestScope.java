package dev.orderly.engine.internal;

import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.StructuredTaskScope;
import java.util.concurrent.StructuredTaskScope.Subtask;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * The {@link RequestScope} on one {@link StructuredTaskScope}, owned by the thread that called {@code Engine.run} if
 * it is virtual, else by the one subtask of a scope that thread opens for it (see {@link #run}).
 * This is the only class of the engine that touches {@code StructuredTaskScope}, a preview API that changes between
 * JDK releases; it is also the scope's {@link StructuredTaskScope.Joiner}.
 *
 * <p>It is the only class of the engine compiled for release 25 with {@code --enable-preview}, so it loads only on
 * JDK 25 with preview features enabled. Nothing refers to it by name in code: {@link RequestScopes} loads it
 * reflectively and falls back to {@link ThreadsRequestScope} when the JVM refuses it.
 *
 * <h2>How it runs</h2>
 * JDK 25 lets only the owner fork, and never after {@code join}. So the owner is the scheduler's hand: it forks the
 * output walker, then loops on {@link Scheduler#awaitNextJobs} (a condition wait, no polling), forking one virtual
 * thread per job as workers free up, and joins when the scheduler says there is nothing more to launch.
 *
 * <h2>Failure and cancellation</h2>
 * <ul>
 *   <li>A job or the walker that fails completes its subtask with the exception. {@link #onComplete} keeps the first
 *       such exception, {@linkplain Scheduler#stop() stops} the scheduler (which wakes the owner) and returns true,
 *       which cancels the scope: every other thread of the request is interrupted, whether it waits in the launch
 *       queue, sleeps out a delay or blocks in {@code dial}/{@code await}.
 *   <li>The walker's normal return (every segment delivered, or the request stopped) completes its subtask well;
 *       {@link #onComplete} then stops the scheduler and cancels the scope the same way, so a finished request does
 *       not wait for jobs nobody needs.
 *   <li>An interrupt of the owner stops the scheduler and calls {@code join} with the interrupt still pending, so
 *       {@code join} throws at once and {@code close} cancels the scope.
 *   <li>{@code close} waits until every thread of the scope has ended; only then does {@link #run} return or throw.
 * </ul>
 *
 * <p>Invariants: {@code firstFailure} is set at most once (compare-and-set), before the scope is cancelled by it.
 * {@code walkerDone} turns true once, on the walker's thread, before the walker's subtask is reported.
 * Subtasks that end after the scope was cancelled are not reported to {@link #onComplete}, so an interrupted job
 * never hides the failure that caused the cancellation. One instance serves one request; {@link #run} is called once.
 */
final class StructuredRequestScope implements RequestScope, StructuredTaskScope.Joiner<Object, Void> {

    private final String name;
    // The request's own id, for the caller's messages: name is the threads' (orderly-ID), an id the request lacks.
    private final String requestId;
    private final Scheduler scheduler;
    private final ThreadFactory threads;
    private final AtomicReference<Throwable> firstFailure = new AtomicReference<>();
    // Set by the walker's subtask when it returns, before that subtask completes and is reported to onComplete.
    private volatile boolean walkerDone;

    /**
     * @param requestId names the scope and its threads
     * @param scheduler hands out the units to run and is stopped on the first failure
     * @param threadObserver told of every thread the scope creates, before it starts (a test hook)
     */
    StructuredRequestScope(String requestId, Scheduler scheduler, Consumer<Thread> threadObserver) {
        this.name = RequestScope.name(requestId);
        this.requestId = requestId;
        this.scheduler = scheduler;
        this.threads = RequestScope.threads(name, threadObserver);
    }

    @Override
    public Optional<Throwable> run(Callable<Void> walker, RequestScope.Jobs jobs)
            throws InterruptedException {
        if (Thread.currentThread().isVirtual()) {
            return runAsOwner(walker, jobs);
        }
        // A platform caller: the owner is the one subtask of a scope of the caller's (not a plain thread, as with
        // ThreadsRequestScope), so the caller's scoped values reach the owner, and through the request's scope its
        // jobs. An interrupt of the caller ends join; close then cancels the owner and waits for it, and so for every
        // thread of the request.
        try (StructuredTaskScope<Optional<Throwable>, Void> outer = StructuredTaskScope.open(
                StructuredTaskScope.Joiner.<Optional<Throwable>>awaitAllSuccessfulOrThrow(),
                config -> config.withThreadFactory(threads).withName(name + "-owner"))) {
            AtomicReference<Optional<Throwable>> failed = new AtomicReference<>();
            // What the owner threw when it broke: the JDK drops the outcome of a subtask that ends after its scope
            // was cancelled, as close cancels it on an interrupt of the caller, and the caller must still throw it.
            AtomicReference<Throwable> broke = new AtomicReference<>();
            Subtask<Optional<Throwable>> owner = outer.fork(() -> {
                Optional<Throwable> failure;
                try {
                    failure = runAsOwner(walker, jobs);
                } catch (RuntimeException | Error e) {
                    broke.set(e);
                    throw e;
                }
                failed.set(failure);
                return failure;
            });
            try {
                outer.join();
            } catch (StructuredTaskScope.FailedException e) {
                throw VirtualOwner.rethrown(e.getCause());
            } catch (InterruptedException e) {
                // Cancels the owner and waits for it, so for every thread of the request. An owner that returns a
                // failure had failed before the interrupt came: the caller gets the failure, its interrupt set.
                outer.close();
                // close waits on through a second interrupt and ends with it set: taken here, as a method that throws
                // InterruptedException clears it (VirtualOwner's join does so for the threads scope).
                Thread.interrupted();
                Throwable broken = broke.get();
                if (broken != null) {
                    // The owner broke as the interrupt came: its exception is thrown unchanged, the interrupt kept
                    // set, as VirtualOwner does for the threads scope.
                    Thread.currentThread().interrupt();
                    throw VirtualOwner.rethrown(broken);
                }
                Optional<Throwable> failure = failed.get();
                if (failure != null && failure.isPresent()) {
                    Thread.currentThread().interrupt();
                    return failure;
                }
                // The JDK's join throws a bare InterruptedException: the caller is told what the owner would tell it.
                throw cancelledByInterrupt();
            }
            return owner.get();
        }
    }

    private Optional<Throwable> runAsOwner(Callable<Void> walker, RequestScope.Jobs jobs)
            throws InterruptedException {
        boolean interrupted = false;
        try (StructuredTaskScope<Object, Void> scope =
                StructuredTaskScope.open(this, config -> config.withThreadFactory(threads).withName(name))) {
            try {
                scope.fork(() -> {
                    walker.call();
                    walkerDone = true;
                    return null;
                });
                RequestScope.forkJobs(scheduler, jobs, task -> scope.fork(task));
            } catch (InterruptedException e) {
                interrupted = true;
                scheduler.stop();
                // With the interrupt pending, join throws at once and close cancels the scope (interrupting every
                // thread) and waits. join returns instead only when no thread is left, or when a failure has
                // already cancelled the scope: either way nothing is left to interrupt.
                Thread.currentThread().interrupt();
            }
            try {
                scope.join();
            } catch (InterruptedException e) {
                interrupted = true;
                scheduler.stop();
            }
        }
        boolean stillPending = Thread.interrupted();
        Throwable failure = firstFailure.get();
        if (interrupted || stillPending) {
            if (failure != null && !(failure instanceof InterruptedException)) {
                // A failure cancelled the scope: the request had failed, and the interrupt only cut into its
                // teardown. The caller gets the failure, and its interrupt stays set.
                Thread.currentThread().interrupt();
                return Optional.of(failure);
            }
            throw cancelledByInterrupt();
        }
        return Optional.ofNullable(failure);
    }

    private InterruptedException cancelledByInterrupt() {
        return new InterruptedException("request " + requestId + " cancelled by interrupt");
    }

    @Override
    public boolean onComplete(Subtask<?> subtask) {
        if (subtask.state() != Subtask.State.FAILED) {
            // Every segment is delivered: what is still alive (a covered lower stage, a job sitting out a delay or
            // blocked in await) is needed by nobody, and the request must not wait for a tier2 to finish it.
            if (walkerDone) {
                scheduler.stop();
                return true;
            }
            return false;
        }
        firstFailure.compareAndSet(null, subtask.exception());
        scheduler.stop();
        return true;
    }

    @Override
    public Void result() {
        return null;
    }
}
