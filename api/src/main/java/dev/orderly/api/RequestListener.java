package dev.orderly.api;

/**
 * Events of one request, for metrics and progress displays. Every method is a no-op by default.
 *
 * <p>Methods are called from the request's threads, possibly many at once, so an implementation must be thread-safe
 * and quick: a job's events from its own thread, {@link #onRerun} and {@link #onSegmentDelivered} from the thread that
 * delivers the segments, and the request's end from the thread that called {@code Engine.run}. Whatever a listener throws, an {@code Error} such as a failed JUnit assertion included, is
 * logged (the first with its stack trace, the rest counted) and never changes the request's outcome; only a
 * {@link VirtualMachineError} propagates.
 *
 * <p>Exactly one of {@link #onRequestDone}, {@link #onRequestFailed} and {@link #onRequestCancelled} ends the events
 * of a request that started: it is called after every thread of the request has ended, so no other event of the
 * request follows it, and before {@code Engine.run} returns or throws. A listener that keeps state per request can
 * drop it there. The {@link RequestResult} it is given is equal to what the caller gets: the one {@code run}
 * returns, or the exception's {@link RequestFailedException#partialResult() partialResult()}.
 */
public interface RequestListener {

    /** A listener that does nothing. */
    RequestListener NONE = new RequestListener() { };

    /** The job of {@code key} joined the launch queue to wait for its turn. */
    default void onQueued(JobKey key) {
    }

    /**
     * The job of {@code key} waits out, before its first dial, the failure delay its unit owes: an earlier job of the
     * unit got in and failed ({@link #onFailed}), then gave its worker up to the re-run of the segment the client
     * waits for ({@link #onAbandoned}) before its next dial. The wait ends at this job's {@link #onDial}, as the
     * failed job's own would have; with ordered launch the job may also join the launch queue ({@link #onQueued}) in
     * that time.
     */
    default void onFailureDelayOwed(JobKey key) {
    }

    /**
     * The job of {@code key} waits out, before its first dial, the refused delay its unit owes: an earlier job of the
     * unit was refused ({@link #onRefused}, nothing ran), then gave its worker up to the re-run of the segment the
     * client waits for ({@link #onAbandoned}) before its redial. The wait ends at this job's {@link #onDial}, as the
     * refused job's own would have; with ordered launch the job also joins the launch queue ({@link #onQueued}) in
     * that time.
     */
    default void onRefusedDelayOwed(JobKey key) {
    }

    /** The job is about to dial a tier2. */
    default void onDial(Job job) {
    }

    /** The dial was refused or the fleet was unreachable; nothing ran, the retry is not counted. */
    default void onRefused(Job job, Tier2Exception cause) {
    }

    /** A tier2 took the job; it is running. */
    default void onAdmitted(Job job) {
    }

    /** The job got in and failed (execution timeout or retryable error), or failed fatally. */
    default void onFailed(Job job, Tier2Exception cause) {
    }

    /** The job ended well: its unit is done. */
    default void onJobDone(Job job) {
    }

    /**
     * The output of {@code key} was missing after its job succeeded (or, with resume, at its read after the store's
     * {@code contains} had found it); the unit runs again.
     */
    default void onRerun(JobKey key) {
    }

    /** The client has received {@code segment}. */
    default void onSegmentDelivered(long segment) {
    }

    /**
     * The job of {@code key} stopped before its unit was done: the unit is no longer needed (its segment was
     * delivered, or a job of a higher stage of its segment is done and produced the unit's partials), the request
     * stopped (it failed, was cancelled, or delivered its last segment) while the job was still alive, or the job
     * gave its worker up to the re-run of the segment the client waits for (its unit is launched again later). It
     * holds no worker any more. Not a failure: nothing is counted.
     *
     * <p>When the request stops, a job that is not on a tier2 at that moment (queued, sitting out a delay, dialing)
     * reports this event only if it sees the stop itself, after a wait or before a dial; when the request's
     * cancellation interrupts it first, its events just end, with no event of its own, and the request's end
     * ({@link #onRequestDone}, {@link #onRequestFailed} or {@link #onRequestCancelled}) is what ends it. Which of the
     * two happens is a race, so a listener that keeps state per job until this event drops what is left at the
     * request's end, and does not count on this event for every job alive when the request stopped.
     *
     * <p>Every {@link #onAdmitted} is followed by exactly one of {@link #onJobDone}, {@link #onFailed} and this
     * event for the same job (or {@link #onRefused}, when a tier2 that took the job then says nothing ran), so a
     * listener that counts running jobs never leaks one. A job whose failure was reported ({@link #onFailed}, the end
     * of that admission) and that then stops instead of retrying, because its unit is no longer needed, reports this
     * event too: it ends the job, which no longer waits to dial again.
     */
    default void onAbandoned(JobKey key) {
    }

    /** The request delivered every segment; {@code result} is what {@code Engine.run} returns. */
    default void onRequestDone(RequestResult result) {
    }

    /**
     * The request failed with {@code failure}, which {@code Engine.run} throws; {@code soFar} holds the request's
     * figures up to the failure. A request stopped by an error {@code run} throws as itself (a
     * {@link VirtualMachineError}, or an error of the engine's own threads) ends here too: {@code failure} then has
     * that error as its cause.
     */
    default void onRequestFailed(RequestResult soFar, RequestFailedException failure) {
    }

    /**
     * The request was cancelled: the thread that called {@code Engine.run} was interrupted, and {@code run} throws
     * {@link InterruptedException}. {@code soFar} holds the request's figures up to the cancellation.
     */
    default void onRequestCancelled(RequestResult soFar) {
    }
}
