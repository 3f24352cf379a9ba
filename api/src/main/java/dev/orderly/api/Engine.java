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
     *     could not be read, or the client threw; the message says which unit, why and how many times
     * @throws InterruptedException if the calling thread was interrupted; the request was cancelled
     */
    RequestResult run(Request request) throws RequestFailedException, InterruptedException;
}
