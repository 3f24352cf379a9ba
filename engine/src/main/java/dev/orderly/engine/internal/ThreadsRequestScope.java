package dev.orderly.engine.internal;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
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
 *   <li>Cancelling stops the scheduler (so the owner forks nothing more) and interrupts every thread still running.
 *   <li>When the owner has nothing more to fork it waits until every task has ended and then joins each thread, so
 *       no thread of the request is alive when {@link #run} returns. An interrupt of the owner, before or during that
 *       wait, cancels the scope; the owner still waits for every thread before it throws.
 * </ul>
 *
 * <h2>Invariants</h2>
 * <ul>
 *   <li>{@code running} holds the threads started and whose task has not ended, and {@code runningCount} counts
 *       them; {@code ended} holds those whose task has ended and that were still alive at the owner's last look.
 *       The owner adds a thread to {@code running} under {@code lock}, before it starts it; the thread moves itself
 *       to {@code ended} as its task ends, with no lock (it joins {@code ended} before it leaves {@code running}, so
 *       once {@code runningCount} is 0 every thread not yet dropped is in {@code ended}). At each fork the owner
 *       drops the threads at the head of {@code ended} that have terminated (a look, never a wait: each is a few
 *       instructions from its end), so {@code ended} holds about as many threads as end between two forks; once
 *       nothing is running, it joins those left.
 *   <li>{@code cancelled} (guarded by {@code lock}) turns true once, before any thread is interrupted by the
 *       cancellation, so a task that fails because of it (its interrupt) always sees it and is not reported: it can
 *       not hide the failure that cancelled the scope. No thread starts once it is true, and every thread started
 *       before it is in {@code running} when the cancellation reads it, unless its task has ended.
 *   <li>{@code firstFailure} (guarded by {@code lock}) is set at most once, only while not cancelled, just before the
 *       cancellation it causes.
 * </ul>
 * {@code allEnded} is signalled, under {@code lock}, by the task whose end takes {@code runningCount} to 0; only the
 * owner waits on it, and it reads the count under {@code lock} before it waits, so the signal can not fall between
 * its look and its wait. One instance serves one request; {@link #run} is called once.
 */
final class ThreadsRequestScope implements RequestScope {

    private final String name;
    private final Scheduler scheduler;
    private final ThreadFactory threads;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition allEnded = lock.newCondition();

    // Added to under lock by the owner; a thread removes itself with no lock when its task ends.
    private final Set<Thread> running = ConcurrentHashMap.newKeySet();
    private final AtomicInteger runningCount = new AtomicInteger();
    // Added to by each thread as its task ends; read and dropped from by the owner only.
    private final Queue<Thread> ended = new ConcurrentLinkedQueue<>();
    @GuardedBy("lock")
    private boolean cancelled;
    @GuardedBy("lock")
    private Throwable firstFailure;
    // written once by the owner before its first fork; read by the owner only
    private Thread owner;

    ThreadsRequestScope(String requestId, Scheduler scheduler, Consumer<Thread> threadObserver) {
        this.name = RequestScope.name(requestId);
        this.scheduler = scheduler;
        this.threads = RequestScope.threads(name, threadObserver);
    }

    @Override
    public Optional<Throwable> run(Callable<Void> walker, RequestScope.Jobs jobs)
            throws InterruptedException {
        return VirtualOwner.run(threads, () -> runAsOwner(walker, jobs));
    }

    private Optional<Throwable> runAsOwner(Callable<Void> walker, RequestScope.Jobs jobs)
            throws InterruptedException {
        owner = Thread.currentThread();
        boolean interrupted = false;
        try {
            fork(walker, true);
            RequestScope.forkJobs(scheduler, jobs, task -> fork(task, false));
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
        if (interrupted || Thread.interrupted()) {
            throw new InterruptedException("request " + name + " cancelled by interrupt");
        }
        lock.lock();
        try {
            return Optional.ofNullable(firstFailure);
        } finally {
            lock.unlock();
        }
    }

    private void fork(Callable<Void> task, boolean isWalker) {
        if (Thread.currentThread() != owner) {
            throw new WrongThreadException("only the owner of " + name + " may fork");
        }
        // A thread whose task ended has nothing left to do but end. Those at the head that have are dropped; the
        // first that has not is looked at again at the next fork. Joining it here instead made the owner wait for it
        // at every fork.
        Thread head;
        while ((head = ended.peek()) != null && !head.isAlive()) {
            ended.remove();
        }
        Thread thread = threads.newThread(() -> runTask(task, isWalker));
        lock.lock();
        try {
            if (cancelled) {
                return;
            }
            running.add(thread);
            runningCount.incrementAndGet();
            thread.start();
        } finally {
            lock.unlock();
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
            Thread self = Thread.currentThread();
            ended.add(self);
            running.remove(self);
            if (runningCount.decrementAndGet() == 0) {
                lock.lock();
                try {
                    allEnded.signal();
                } finally {
                    lock.unlock();
                }
            }
        }
    }

    /** Stops the scheduler and interrupts every thread still running; only the first call does anything. */
    private void cancel() {
        List<Thread> toInterrupt;
        lock.lock();
        try {
            if (cancelled) {
                return;
            }
            cancelled = true;
            toInterrupt = new ArrayList<>(running);
        } finally {
            lock.unlock();
        }
        // Outside the lock: the scheduler has its own, and interrupting wakes threads that want ours.
        scheduler.stop();
        for (Thread thread : toInterrupt) {
            thread.interrupt();
        }
    }

    /**
     * Joins the threads whose task has ended: each is at most a few instructions from its end. Called once nothing is
     * running, so no thread is added meanwhile.
     */
    private void joinEnded() throws InterruptedException {
        Thread thread;
        while ((thread = ended.peek()) != null) {
            // Left at the head if the join is interrupted: the owner joins it again after the cancellation.
            thread.join();
            ended.remove();
        }
    }

    /**
     * Waits until every thread of the request has ended. An interrupt meanwhile cancels the scope and the wait goes
     * on: the request's threads must not outlive {@link #run}.
     *
     * @return whether the owner was interrupted while it waited
     */
    private boolean awaitEveryThread() {
        boolean interrupted = false;
        while (true) {
            try {
                lock.lock();
                try {
                    while (runningCount.get() != 0) {
                        allEnded.await();
                    }
                } finally {
                    lock.unlock();
                }
                joinEnded();
                return interrupted;
            } catch (InterruptedException e) {
                interrupted = true;
                cancel();
            }
        }
    }
}
