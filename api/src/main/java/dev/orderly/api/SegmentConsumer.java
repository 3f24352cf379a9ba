package dev.orderly.api;

/**
 * The client of a request. Called once per segment, in segment order, from one thread at a time.
 *
 * <p>It may block: that is back-pressure, and the engine schedules no further ahead than its look-ahead allows.
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
