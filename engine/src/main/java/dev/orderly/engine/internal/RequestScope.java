package dev.orderly.engine.internal;

import dev.orderly.api.JobKey;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadFactory;
import java.util.function.Consumer;

/**
 * The threads of one request. Two implementations keep the same rules: {@link StructuredRequestScope} on
 * {@code StructuredTaskScope} (JDK 25 with {@code --enable-preview}) and {@link ThreadsRequestScope} on plain JDK 21
 * APIs; {@link RequestScopes} picks one per JVM.
 *
 * <h2>The rules both keep</h2>
 * <ul>
 *   <li>The owner, the thread that forks, is a virtual thread: the thread that called {@link #run} if it is one, else
 *       a virtual thread of the scope's, which {@code run}'s caller waits for. A platform owner would be woken by the
 *       kernel (a futex wake and a context switch) every time a job's end frees a worker, which cost an instant job
 *       about a third of its rate. The caller's interrupt reaches the owner; the caller returns or throws only once
 *       the owner has ended; what reaches the jobs from the caller (inheritable thread locals; with the structured
 *       scope, scoped values) is the same either way.
 *   <li>Only the owner forks: it forks the output walker, then one virtual thread per unit the scheduler hands out,
 *       as workers free up, and never after the scheduler said there is nothing more to launch.
 *   <li>The first failure of a job or of the walker, or an interrupt of the owner, stops the scheduler and cancels the
 *       scope: every other thread of the request is interrupted, wherever it waits (launch queue, delay,
 *       {@code dial}/{@code await}).
 *   <li>The walker ending well (every segment delivered) cancels the scope too: what is still alive then (a lower
 *       stage a higher one covered, a job sitting out a delay, a job blocked in {@code await}) is needed by nobody,
 *       and the request must not wait for a tier2 to finish it.
 *   <li>{@link #run} returns or throws only after every thread of the scope has ended; nothing is left open.
 *   <li>A failure that happens after the scope was cancelled (typically the interrupt the cancellation caused) is not
 *       reported, so it never hides the failure that caused the cancellation.
 * </ul>
 * One instance serves one request; {@link #run} is called once.
 */
interface RequestScope {

    /**
     * Runs the request: forks {@code walker}, then one job per unit the scheduler hands out, and waits until every
     * thread of the scope has ended.
     *
     * @param walker delivers the outputs to the client; its normal return means every segment was delivered (or the
     *     request was stopped)
     * @param jobs makes the task that runs one unit (and reports its end to the scheduler)
     * @return the first failure of a job or of the walker, if any
     * @throws InterruptedException if the calling thread (or the owner) was interrupted; every thread of the request
     *     has ended
     */
    Optional<Throwable> run(Callable<Void> walker, Jobs jobs) throws InterruptedException;

    /** Makes the task that runs one unit handed out by the scheduler. */
    @FunctionalInterface
    interface Jobs {
        /** The task of the job of {@code key}, whose earlier jobs went through {@code prior}. */
        Callable<Void> job(JobKey key, UnitCounts prior);
    }

    /** One fork of a job's task on the owner's thread, the scope's own way. */
    @FunctionalInterface
    interface Fork {
        void fork(Callable<Void> task) throws InterruptedException;
    }

    /**
     * The owner's loop, the same in both scopes: forks, in order, a job for each unit the scheduler hands out (in
     * batches of up to {@link Scheduler#LAUNCH_BATCH}), until it hands out no more. A fork that throws (no thread could
     * be made) gives that unit and the rest of its batch back to the scheduler ({@link Scheduler#notForked}), which
     * fails the request, and the exception goes up unchanged.
     */
    static void forkJobs(Scheduler scheduler, Jobs jobs, Fork fork) throws InterruptedException {
        // The units come as two arrays the owner reuses, not as an object per unit: a fork makes the job's task only.
        int batch = Math.min(Scheduler.LAUNCH_BATCH, scheduler.workers());
        JobKey[] keys = new JobKey[batch];
        UnitCounts[] priors = new UnitCounts[batch];
        int handedOut;
        while ((handedOut = scheduler.awaitNextJobs(keys, priors)) > 0) {
            for (int i = 0; i < handedOut; i++) {
                try {
                    fork.fork(jobs.job(keys[i], priors[i]));
                } catch (RuntimeException | Error e) {
                    scheduler.notForked(handedOut - i);
                    throw e;
                }
            }
            if (handedOut < batch) {
                // Fewer units than a batch: the owner was woken by a job's end, as it is at almost every one. It
                // lets the threads ready on its carrier (jobs about to end) run before it looks again, so that the
                // look finds their workers free together and hands them out under one lock hold, instead of a wake,
                // a lock hold and a fork for each. It waits for nothing: it runs again as soon as they have.
                Thread.yield();
            }
        }
    }

    /** The name of the scope of request {@code requestId}, which every thread of the scope carries too. */
    static String name(String requestId) {
        return "orderly-" + requestId;
    }

    /**
     * Makes the virtual threads of scope {@code name}, telling {@code observer} of each before it starts. Every thread
     * of a request gets the same name, the scope's: a number per thread would be formatted once per job, on the
     * owner's thread, which forks every job (a few per cent of an instant job's cost). In a thread dump the name says
     * which request a thread belongs to, its stack ({@code JobRunner} or {@code OutputWalker}) what it does, and its
     * thread id tells it from the others.
     */
    static ThreadFactory threads(String name, Consumer<Thread> observer) {
        ThreadFactory virtual = Thread.ofVirtual().name(name).factory();
        return task -> {
            Thread thread = virtual.newThread(task);
            observer.accept(thread);
            return thread;
        };
    }

    /** Opens the scope of one request. */
    @FunctionalInterface
    interface Factory {

        /**
         * @param requestId names the scope and its threads
         * @param scheduler hands out the units to run and is stopped on the first failure
         * @param threadObserver told of every thread the scope creates, before it starts (a test hook)
         */
        RequestScope open(String requestId, Scheduler scheduler, Consumer<Thread> threadObserver);
    }
}
