package dev.orderly.engine.internal;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestListener;
import dev.orderly.api.RequestResult;
import dev.orderly.api.Tier2Exception;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Passes each event on to the embedder's listener and logs, instead of propagating, whatever it throws: a listener
 * is for metrics and displays and must never break a request. That includes {@code Error}s (a JUnit assertion inside
 * a listener is an {@code AssertionError}); only a {@link VirtualMachineError}, after which nothing can be trusted,
 * propagates. The first failure is logged with its stack trace; the
 * rest are only counted (a listener that throws on every event would otherwise log a trace per dial), and
 * {@link #logFailuresAfterTheFirst} reports the count once, at the request's end.
 *
 * <p>Thread-safe if the wrapped listener is: the failure count is an atomic, and only the thread that moves it from 0
 * to 1 logs the trace.
 */
final class SafeListener implements RequestListener {

    private static final Logger LOG = LoggerFactory.getLogger(SafeListener.class);

    private final String requestId;
    private final RequestListener listener;
    private final BooleanSupplier stopping;
    private final AtomicLong failures = new AtomicLong();

    /**
     * @param requestId named in every line this logs: the request's end events run on the caller's thread, which
     *     carries no MDC of the request
     * @param stopping whether the request is being stopped, so that an {@code InterruptedException} a listener throws
     *     may be its answer to the stop's interrupt (which is then set again); false, it is the listener's own
     */
    SafeListener(String requestId, RequestListener listener, BooleanSupplier stopping) {
        this.requestId = requestId;
        this.listener = listener;
        this.stopping = stopping;
    }

    /** Logs, once, how many failures of the listener were counted but not logged; nothing if none were. */
    void logFailuresAfterTheFirst() {
        long more = failures.get() - 1;
        if (more > 0) {
            LOG.warn("request {}: the listener threw {} more time(s) after the first (not logged)", requestId, more);
        }
    }

    @Override
    public void onQueued(JobKey key) {
        guard("onQueued", () -> listener.onQueued(key));
    }

    @Override
    public void onFailureDelayOwed(JobKey key) {
        guard("onFailureDelayOwed", () -> listener.onFailureDelayOwed(key));
    }

    @Override
    public void onRefusedDelayOwed(JobKey key) {
        guard("onRefusedDelayOwed", () -> listener.onRefusedDelayOwed(key));
    }

    @Override
    public void onDial(Job job) {
        guard("onDial", () -> listener.onDial(job));
    }

    @Override
    public void onRefused(Job job, Tier2Exception cause) {
        guard("onRefused", () -> listener.onRefused(job, cause));
    }

    @Override
    public void onAdmitted(Job job) {
        guard("onAdmitted", () -> listener.onAdmitted(job));
    }

    @Override
    public void onFailed(Job job, Tier2Exception cause) {
        guard("onFailed", () -> listener.onFailed(job, cause));
    }

    @Override
    public void onJobDone(Job job) {
        guard("onJobDone", () -> listener.onJobDone(job));
    }

    @Override
    public void onRerun(JobKey key) {
        guard("onRerun", () -> listener.onRerun(key));
    }

    @Override
    public void onSegmentDelivered(long segment) {
        guard("onSegmentDelivered", () -> listener.onSegmentDelivered(segment));
    }

    @Override
    public void onAbandoned(JobKey key) {
        guard("onAbandoned", () -> listener.onAbandoned(key));
    }

    @Override
    public void onRequestDone(RequestResult result) {
        guardOnTheCaller("onRequestDone", () -> listener.onRequestDone(result));
    }

    @Override
    public void onRequestFailed(RequestResult soFar, RequestFailedException failure) {
        guardOnTheCaller("onRequestFailed", () -> listener.onRequestFailed(soFar, failure));
    }

    @Override
    public void onRequestCancelled(RequestResult soFar) {
        guardOnTheCaller("onRequestCancelled", () -> listener.onRequestCancelled(soFar));
    }

    /**
     * The request's end events run on the thread that called {@code run}, which the engine never interrupts: an
     * {@code InterruptedException} the listener throws there answers an interrupt only if the thread had one when the
     * event began (the caller's own); else it is the listener's own, and the caller's thread is left as it was.
     */
    private void guardOnTheCaller(String event, Runnable call) {
        boolean interruptToAnswer = Thread.currentThread().isInterrupted();
        guard(event, call, () -> interruptToAnswer);
    }

    private void guard(String event, Runnable call) {
        guard(event, call, stopping);
    }

    private void guard(String event, Runnable call, BooleanSupplier stopping) {
        try {
            call.run();
        } catch (VirtualMachineError e) {
            throw e;
        } catch (Throwable e) {
            if (e instanceof InterruptedException && stopping.getAsBoolean()) {
                // A listener written where checked exceptions are not checked (Kotlin, Groovy, @SneakyThrows) answered
                // the request's cancellation by throwing it, which cleared the flag: set it again, or the job goes on
                // to dial (or wait) with its cancellation lost, and run waits for it. With the request not stopping,
                // the exception is the listener's own: setting an interrupt nobody sent would fail the request at the
                // thread's next wait, against "a listener never changes the request's outcome".
                Thread.currentThread().interrupt();
            }
            if (failures.incrementAndGet() == 1) {
                LOG.warn("request {}: the listener threw from {}; ignored, and later failures only counted", requestId,
                        event, e);
            }
        }
    }
}
