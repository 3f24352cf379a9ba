package dev.orderly.engine.internal;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.util.ArrayDeque;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * The {@link RequestScope} on plain JDK 21 APIs: one virtual thread per task, started by the owner, with the owner
 * rules and the cancellation of {@code StructuredTaskScope} built on a lock. Used wherever
 * {@link StructuredRequestScope} can not load (any JDK but 25, or 25 without {@code --enable-preview}).
 *
 * <h2>How it keeps the rules</h2>
 * <ul>
 *   <li>Only the owner (the thread that called {@link #run}) forks; a fork from any other thread throws
 *       {@link WrongThreadException}, as {@code StructuredTaskScope.fork} does. A fork after the scope was cancelled
 *       starts nothing, like a fork into a cancelled {@code StructuredTaskScope}.
 *   <li>Each task runs inside a wrapper that reports its end: the first failure while the scope is not cancelled is
 *       kept and cancels the scope; the walker's normal return cancels it too (every segment is delivered, what is
 *       left alive is needed by nobody).
 *   <li>Cancelling stops the scheduler (so the owner forks nothing more), then wakes the owner, which interrupts every
 *       thread it started. The owner does the interrupting, whoever cancels, because only the owner knows the
 *       threads: a task's start and end touch no shared set of threads, only a count.
 *   <li>When the owner has nothing more to fork it waits until every task has ended and then joins each thread, so
 *       no thread of the request is alive when {@link #run} returns. An interrupt of the owner, before or during that
 *       wait, cancels the scope; the owner still waits for every thread before it throws.
 * </ul>
 *
 * <h2>Invariants</h2>
 * <ul>
 *   <li>{@code walker} and {@code jobs} (the owner's alone, no lock) hold every thread the owner started that may
 *       still be alive: a thread is added once started, and only a thread that has terminated is dropped. The owner
 *       drops, at each fork, the jobs' threads at the head of {@code jobs} that have terminated (a look, never a
 *       wait), and all that have, wherever they are, once {@code jobs} holds {@code compactAt} threads; it then sets
 *       {@code compactAt} to twice what is left plus {@link #COMPACT_SLACK}. So a long job at the head keeps at most
 *       about as many ended threads as there are live ones, plus the slack, from being collected.
 *   <li>{@code runningCount} is the number of tasks started and not ended, once the owner has counted the last one it
 *       started (it counts each after its start, so a task that ends at once can take it below that for a moment;
 *       only the owner waits on the count, after its last fork).
 *   <li>{@code cancelled} (written under {@code lock}, read with none by the owner's forks) turns true once, before
 *       any thread is interrupted by the cancellation, so a task that fails because of it (its interrupt) always sees
 *       it and is not reported: it can not hide the failure that cancelled the scope. The owner starts no thread once
 *       it has seen it true, and interrupts every thread it started before, since it does both itself.
 *   <li>{@code firstFailure} (guarded by {@code lock}) is set at most once, only while not cancelled, just before the
 *       cancellation it causes.
 * </ul>
 * {@code ownerWake} is signalled, under {@code lock}, by the task whose end takes {@code runningCount} to 0 and by the
 * cancellation; only the owner waits on it, and it reads the count and {@code cancelled} under {@code lock} before it
 * waits, so neither signal can fall between its look and its wait. One instance serves one request; {@link #run} is
 * called once.
 */
final class ThreadsRequestScope implements RequestScope {

    /** The ended threads {@code jobs} may hold beyond twice the live ones before the owner looks through it all. */
    static final int COMPACT_SLACK = 16;

    private final String name;
    // The request's own id, for the caller's messages: name is the threads' (orderly-ID), an id the request lacks.
    private final String requestId;
    private final Scheduler scheduler;
    private final ThreadFactory threads;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition ownerWake = lock.newCondition();
    private final AtomicInteger runningCount = new AtomicInteger();
    // Written under lock; read with none by the owner's forks.
    private volatile boolean cancelled;
    @GuardedBy("lock")
    private Throwable firstFailure;

    // The owner's alone: written by it, read by it.
    private Thread owner;
    private Thread walker;
    private final ArrayDeque<Thread> jobs = new ArrayDeque<>();
    private int compactAt = COMPACT_SLACK;

    ThreadsRequestScope(String requestId, Scheduler scheduler, Consumer<Thread> threadObserver) {
        this.name = RequestScope.name(requestId);
        this.requestId = requestId;
        this.scheduler = scheduler;
        this.threads = RequestScope.threads(name, threadObserver);
    }

    @Override
    public Optional<Throwable> run(Callable<Void> walkerTask, RequestScope.Jobs jobTasks)
            throws InterruptedException {
        return VirtualOwner.run(threads, () -> runAsOwner(walkerTask, jobTasks));
    }

    private Optional<Throwable> runAsOwner(Callable<Void> walkerTask, RequestScope.Jobs jobTasks)
            throws InterruptedException {
        owner = Thread.currentThread();
        boolean interrupted = false;
        try {
            fork(walkerTask, true);
            RequestScope.forkJobs(scheduler, jobTasks, task -> fork(task, false));
        } catch (InterruptedException e) {
            interrupted = true;
            cancel();
        } catch (RuntimeException | Error e) {
            // The owner itself broke (no thread could be made, say): nothing of the request may outlive run.
            cancel();
            if (awaitEveryThread()) {
                Thread.currentThread().interrupt();
            }
            throw e;
        }
        interrupted |= awaitEveryThread();
        Throwable failure;
        lock.lock();
        try {
            failure = firstFailure;
        } finally {
            lock.unlock();
        }
        // Taken whatever interrupted says: run throws InterruptedException with the interrupt cleared, as any method
        // that throws it does, also when a second interrupt came after the first was seen (as the structured scope).
        boolean stillPending = Thread.interrupted();
        if (interrupted || stillPending) {
            if (failure != null && !(failure instanceof InterruptedException)) {
                // A failure cancelled the scope before the interrupt came (it is kept only while not cancelled): the
                // request had failed, and the interrupt only cut into its teardown. The caller gets the failure, and
                // its interrupt stays set.
                Thread.currentThread().interrupt();
                return Optional.of(failure);
            }
            throw new InterruptedException("request " + requestId + " cancelled by interrupt");
        }
        return Optional.ofNullable(failure);
    }

    private void fork(Callable<Void> task, boolean isWalker) {
        if (Thread.currentThread() != owner) {
            throw new WrongThreadException("only the owner of " + name + " may fork");
        }
        if (cancelled) {
            return;
        }
        dropEnded();
        Thread thread = threads.newThread(() -> runTask(task, isWalker));
        thread.start();
        // Counted after its start, so a start that throws leaves nothing counted that will never end.
        runningCount.incrementAndGet();
        if (isWalker) {
            walker = thread;
        } else {
            jobs.addLast(thread);
        }
    }

    /**
     * Drops the jobs' threads that have terminated: those at the head of {@code jobs} at every fork (jobs mostly end
     * in the order they started), and all of them once {@code jobs} holds {@code compactAt} threads, so a long job at
     * the head does not keep every thread started after it.
     */
    private void dropEnded() {
        Thread head;
        while ((head = jobs.peekFirst()) != null && !head.isAlive()) {
            jobs.pollFirst();
        }
        if (jobs.size() >= compactAt) {
            jobs.removeIf(thread -> !thread.isAlive());
            compactAt = 2 * jobs.size() + COMPACT_SLACK;
        }
    }

    private void runTask(Callable<Void> task, boolean isWalker) {
        boolean cancel = isWalker;
        try {
            task.call();
        } catch (Throwable failure) {
            // Any Throwable, as StructuredTaskScope reports any to its joiner; one after the cancellation is its echo.
            lock.lock();
            try {
                cancel = !cancelled && firstFailure == null;
                if (cancel) {
                    firstFailure = failure;
                }
            } finally {
                lock.unlock();
            }
        } finally {
            if (cancel) {
                cancel();
            }
            // No lock for the common end: a task's end only takes the lock to wake the owner, when it is the last.
            if (runningCount.decrementAndGet() == 0) {
                lock.lock();
                try {
                    ownerWake.signal();
                } finally {
                    lock.unlock();
                }
            }
        }
    }

    /**
     * Stops the scheduler, then marks the scope cancelled and wakes the owner (which then interrupts every thread it
     * started); only the first call marks and wakes.
     */
    private void cancel() {
        // First, outside the lock (the scheduler has its own; stopping it again changes nothing): a thread that meets
        // the interrupt the owner sends once it sees cancelled finds the request stopped, and takes the interrupt for
        // the request's. Stopping it also wakes an owner that waits for a unit to fork.
        scheduler.stop();
        lock.lock();
        try {
            if (cancelled) {
                return;
            }
            cancelled = true;
            ownerWake.signal();
        } finally {
            lock.unlock();
        }
    }

    /** On the owner, once the scope is cancelled: interrupts every thread it started that may still be alive. */
    private void interruptThreads() {
        if (walker != null) {
            walker.interrupt();
        }
        for (Thread thread : jobs) {
            thread.interrupt();
        }
    }

    /**
     * Waits until every thread of the request has ended, interrupting them all first if the scope is or gets
     * cancelled meanwhile. An interrupt of the owner cancels the scope and the wait goes on: the request's threads
     * must not outlive {@link #run}.
     *
     * @return whether the owner was interrupted while it waited
     */
    private boolean awaitEveryThread() {
        boolean interrupted = false;
        boolean threadsInterrupted = false;
        while (true) {
            try {
                boolean interruptNow;
                lock.lock();
                try {
                    while (runningCount.get() != 0 && (threadsInterrupted || !cancelled)) {
                        ownerWake.await();
                    }
                    interruptNow = cancelled && !threadsInterrupted;
                } finally {
                    lock.unlock();
                }
                if (interruptNow) {
                    interruptThreads();
                    threadsInterrupted = true;
                    continue;
                }
                joinAll();
                return interrupted;
            } catch (InterruptedException e) {
                interrupted = true;
                cancel();
            }
        }
    }

    /**
     * Joins every thread the owner started: each has ended its task, so is at most a few instructions from its end.
     * Called once nothing is running, so no thread is added meanwhile.
     */
    private void joinAll() throws InterruptedException {
        if (walker != null) {
            walker.join();
            walker = null;
        }
        Thread thread;
        while ((thread = jobs.peekFirst()) != null) {
            // Left at the head if the join is interrupted: the owner joins it again after the cancellation.
            thread.join();
            jobs.pollFirst();
        }
    }
}
