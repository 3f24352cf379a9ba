package dev.orderly.api;

/**
 * The client of a request. Called once per segment, in segment order, from one thread at a time.
 *
 * <p>It may block: that is back-pressure, and the engine schedules no further ahead than its look-ahead allows.
 *
 * <p>Memory consistency effects: each call of {@link #accept} <i>happens-before</i> the next call for the same
 * request, and the last call happens-before {@link Engine#run} returns or throws. A consumer may therefore keep plain,
 * unsynchronised state across calls (a running checksum, an open output stream) even if a future engine made
 * consecutive calls from different threads.
 *
 * <p>Whatever {@code accept} throws, an {@code Error} or an {@link InterruptedException} included, fails the request
 * naming the segment's last stage ({@link RequestFailedException#key()}), the throwable as the cause; only a
 * {@link VirtualMachineError} propagates from {@code Engine.run} as itself. When the request is being cancelled (its
 * caller interrupted, or another part of it failed), the interrupt that ends a blocked {@code accept} is that
 * cancellation's echo: {@code Engine.run} then throws what the cancellation caused.
 *
 * <p>An interrupt {@code accept} leaves set and returns (restored, not thrown) is not a failure of that call: the
 * request fails at its next wait for a segment, naming that segment, as for an interrupt the listener or the store
 * leaves. After the last segment there is no such wait, so the request is done. To fail the request for a segment,
 * throw.
 */
@FunctionalInterface
public interface SegmentConsumer {

    /**
     * Receives the output of one segment.
     *
     * @throws Exception to fail the request; the exception becomes the cause of the
     *     {@link RequestFailedException}
     */
    void accept(long segment, byte[] output) throws Exception;
}
