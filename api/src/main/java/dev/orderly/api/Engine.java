package dev.orderly.api;

/**
 * Runs requests. One engine may run many requests at once, each with its own launch queue and scope.
 *
 * <p>Memory consistency effects: actions in a thread prior to calling {@link #run} <i>happen-before</i> every action
 * the engine takes for that request (every dial, every call of the {@link Tier2Client}, {@link OutputStore},
 * {@link SegmentConsumer} and {@link RequestListener}), and every one of those actions happens-before {@code run}
 * returns or throws: when it does, every thread of the request has ended. After {@code run} the caller may read,
 * without synchronisation, whatever the request's client, store and listener wrote. Within a request, actions before a
 * job's {@link Tier2Call#await()} returns happen-before the engine's {@link OutputStore#read} of that segment, and each
 * {@link SegmentConsumer#accept} happens-before the next.
 */
@FunctionalInterface
public interface Engine {

    /**
     * Runs {@code request} and blocks until every segment has been delivered to its client, in order, exactly once.
     *
     * <p>When it throws, every thread of the request has ended and every {@link Tier2Call} is closed. Once the
     * request has failed, been cancelled, passed its deadline or delivered its last segment, none of its jobs dials
     * again, whatever its {@link Tier2Client} does with an interrupt. A {@link VirtualMachineError} thrown anywhere in
     * the request is thrown from here as itself, once everything is cancelled; any other throwable of the client,
     * the store or the tier2 client fails the request as below, and one of a {@link RequestListener} is only logged.
     *
     * @throws RequestFailedException if a unit failed too often or fatally, an output never appeared, the store
     *     could not be read, the client threw, or the request's deadline passed; the message says which unit, why
     *     and how many times; {@link RequestFailedException#partialResult()} says how far the request got
     * @throws IllegalArgumentException if the engine can not keep state for a plan this large (for the engine of
     *     {@code Orderly.engine}: more than 65,536 stages, or a look-ahead {@code ceil(lookaheadFactor * workers)} of
     *     more than 2^20 segments), naming the bound; thrown before anything is dialed, with no listener event (the
     *     request has not started)
     * @throws InterruptedException if the calling thread was interrupted (an interrupt pending at the call is thrown
     *     before anything is dialed); the request was cancelled, and the figures so far ride along as a suppressed
     *     {@code RequestFailedException}: see {@link RequestFailedException#partialResultOf(Throwable)}. An interrupt
     *     that comes once the request has failed, while {@code run} waits for its threads to end, does not hide the
     *     failure: {@code run} throws the failure instead, with the calling thread's interrupt set again; nor one that
     *     comes once every segment was delivered: {@code run} returns the result, the interrupt set again
     */
    RequestResult run(Request request) throws RequestFailedException, InterruptedException;
}
