package dev.orderly.engine.internal;

import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestResult;
import java.util.Map;
import java.util.function.Consumer;
import org.slf4j.MDC;

/**
 * Runs a request's owner (the thread that opens its scope, forks its jobs and waits for a free worker) on a virtual
 * thread of its own when {@code Engine.run} is called from a platform thread; the caller waits for it.
 *
 * <p>Why: the owner waits for a free worker every time the workers are all taken, and a job's end wakes it. A waiting
 * platform thread is woken by the kernel (a futex wake and a context switch each time, a large part of an instant
 * job's cost, and a delay in which freed workers idle); a virtual owner is woken by its scheduler, like the jobs.
 * A caller that is a virtual thread is the owner itself, as before.
 *
 * <p>The caller keeps every promise of {@code Engine.run}: it returns or throws only once the owner, and with it every
 * thread of the request, has ended; an interrupt of the caller is passed on to the owner (which cancels the request
 * and throws {@link InterruptedException}), and the caller then waits, not interruptibly, for the owner to end, so
 * nothing outlives the call. An interrupt that comes as the request ends well is kept set on the caller. The owner
 * takes the caller's MDC when the binding keeps one, so the request's own log lines carry the caller's context.
 * Whatever the owner throws is thrown by the caller, unchanged.
 *
 * <p>Stateless; each call of {@link #run} uses its own thread and {@link Outcome}, written by the owner and read by
 * the caller after {@link Thread#join()} (which orders the two).
 */
final class VirtualOwner {

    /** The owner's work: what {@code Engine.run} does on the calling thread. */
    @FunctionalInterface
    interface Body {
        RequestResult run() throws RequestFailedException, InterruptedException;
    }

    private VirtualOwner() {
    }

    /**
     * Runs {@code body} on the calling thread if it is virtual, else on a new virtual thread named {@code name}, which
     * {@code observer} is told of before it starts; returns what {@code body} returned, or throws what it threw.
     */
    static RequestResult run(String name, Consumer<Thread> observer, Body body)
            throws RequestFailedException, InterruptedException {
        if (Thread.currentThread().isVirtual()) {
            return body.run();
        }
        Map<String, String> context = LogContext.KEPT ? MDC.getCopyOfContextMap() : null;
        Outcome outcome = new Outcome();
        Thread owner = Thread.ofVirtual().name(name).unstarted(() -> {
            if (context != null) {
                MDC.setContextMap(context);
            }
            try {
                outcome.result = body.run();
            } catch (Throwable t) {
                outcome.failure = t;
            }
        });
        observer.accept(owner);
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
        if (interrupted && !(failure instanceof InterruptedException)) {
            // The request ended (well or not) before the owner saw the interrupt: the caller keeps it.
            Thread.currentThread().interrupt();
        }
        if (failure == null) {
            return outcome.result;
        }
        if (failure instanceof RequestFailedException e) {
            throw e;
        }
        if (failure instanceof InterruptedException e) {
            throw e;
        }
        if (failure instanceof RuntimeException e) {
            throw e;
        }
        if (failure instanceof Error e) {
            throw e;
        }
        throw new IllegalStateException("the request's owner threw " + failure, failure);
    }

    /** What the owner left: written by the owner before it ends, read by the caller after join. */
    private static final class Outcome {
        RequestResult result;
        Throwable failure;
    }
}
