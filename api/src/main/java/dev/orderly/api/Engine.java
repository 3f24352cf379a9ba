package dev.orderly.api;

/**
 * Runs requests. One engine may run many requests at once, each with its own launch queue and scope.
 */
@FunctionalInterface
public interface Engine {

    /**
     * Runs {@code request} and blocks until every segment has been delivered to its client, in order, exactly once.
     *
     * <p>When it throws, every thread of the request has ended and every {@link Tier2Call} is closed.
     *
     * @throws RequestFailedException if a unit failed too often or fatally, an output never appeared, the store
     *     could not be read, the client threw, or the request's deadline passed; the message says which unit, why
     *     and how many times; {@link RequestFailedException#partialResult()} says how far the request got
     * @throws InterruptedException if the calling thread was interrupted (an interrupt pending at the call is thrown
     *     before anything is dialed); the request was cancelled, and the figures so far ride along as a suppressed
     *     {@code RequestFailedException}: see {@link RequestFailedException#partialResultOf(Throwable)}
     */
    RequestResult run(Request request) throws RequestFailedException, InterruptedException;
}
