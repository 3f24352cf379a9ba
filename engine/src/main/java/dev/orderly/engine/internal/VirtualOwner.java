package dev.orderly.engine.internal;

import java.util.Map;
import java.util.concurrent.ThreadFactory;
import org.slf4j.MDC;

/**
 * Runs the owner of a {@link ThreadsRequestScope} (the thread that forks the request's jobs and waits for a free
 * worker) on a virtual thread of the scope's when the scope is run from a platform thread; the caller waits for it.
 * ({@link StructuredRequestScope} does the same with a scope of its own, so that scoped values still reach the jobs.)
 *
 * <p>Why: the owner waits for a free worker every time the workers are all taken, and a job's end wakes it. A waiting
 * platform thread is woken by the kernel (a futex wake and a context switch each time, a large part of an instant
 * job's cost, and a delay in which freed workers idle); a virtual owner is woken by its scheduler, like the jobs.
 * A caller that is a virtual thread is the owner itself.
 *
 * <p>The caller waits for the owner to end before it returns or throws, whatever happens: an interrupt of the caller
 * is passed on to the owner (which cancels the request and throws {@link InterruptedException}), and the caller then
 * waits on, not interruptibly, so nothing of the request outlives the call. An interrupt that comes as the owner ends
 * well is kept set on the caller; one that comes as it ends by {@link InterruptedException} is cleared with it. The
 * owner inherits the caller's inheritable thread locals (as the jobs did from a caller that owned them) and takes the
 * caller's MDC when the binding keeps one. Whatever the owner throws is thrown by the caller, unchanged.
 *
 * <p>Stateless; each call of {@link #run} uses its own thread and {@link Outcome}, written by the owner and read by
 * the caller after {@link Thread#join()} (which orders the two).
 */
final class VirtualOwner {

    /** The owner's work. */
    @FunctionalInterface
    interface Body<T> {
        T run() throws InterruptedException;
    }

    private VirtualOwner() {
    }

    /**
     * Runs {@code body} on the calling thread if it is virtual, else on a new thread of {@code threads} (which must
     * make virtual threads); returns what {@code body} returned, or throws what it threw.
     */
    static <T> T run(ThreadFactory threads, Body<T> body) throws InterruptedException {
        if (Thread.currentThread().isVirtual()) {
            return body.run();
        }
        Map<String, String> context = LogContext.KEPT ? MDC.getCopyOfContextMap() : null;
        Outcome<T> outcome = new Outcome<>();
        Thread owner = threads.newThread(() -> {
            if (context != null) {
                MDC.setContextMap(context);
            }
            try {
                outcome.result = body.run();
            } catch (Throwable t) {
                outcome.failure = t;
            }
        });
        owner.start();
        boolean interrupted = false;
        while (true) {
            try {
                owner.join();
                break;
            } catch (InterruptedException e) {
                // The request is cancelled: the owner hears it, cancels every thread of the request, and ends.
                interrupted = true;
                owner.interrupt();
            }
        }
        Throwable failure = outcome.failure;
        if (failure instanceof InterruptedException) {
            // Thrown on to the caller, which keeps no interrupt then, as any method that throws it: one that came as
            // the owner ended (join returns normally once the owner has ended, with the flag left set) is taken here.
            Thread.interrupted();
        } else if (interrupted) {
            // The owner ended (well or not) before it saw the interrupt: the caller keeps it.
            Thread.currentThread().interrupt();
        }
        if (failure == null) {
            return outcome.result;
        }
        throw rethrown(failure);
    }

    /**
     * What the owner threw, for its caller to throw: an {@link InterruptedException}, a {@code RuntimeException} or
     * an {@code Error} is thrown from here unchanged; anything else (a checked exception the owner could not declare)
     * is returned wrapped in an {@link IllegalStateException} that names it.
     */
    static IllegalStateException rethrown(Throwable failure) throws InterruptedException {
        if (failure instanceof InterruptedException e) {
            throw e;
        }
        if (failure instanceof RuntimeException e) {
            throw e;
        }
        if (failure instanceof Error e) {
            throw e;
        }
        return new IllegalStateException("the request's owner threw " + failure, failure);
    }

    /** What the owner left: written by the owner before it ends, read by the caller after join. */
    private static final class Outcome<T> {
        T result;
        Throwable failure;
    }
}
