package dev.orderly.api;

/**
 * The fleet of remote workers, as seen by one request.
 *
 * <p>Implementations must be safe to call from many threads at once: every job of every request dials through it.
 */
@FunctionalInterface
public interface Tier2Client {

    /**
     * Hands {@code job} to a tier2 and blocks until a tier2 has taken it.
     *
     * <p>Throw {@link Tier2Exception#refused} when the tier2 turned the job away without running anything (it is at
     * its concurrent-request limit) and {@link Tier2Exception#unreachable} when no tier2 could be reached (connection
     * refused, no healthy upstream): both are free retries. A {@link RuntimeException} counts as
     * {@link Tier2Exception.Kind#FATAL FATAL}, and so does a checked exception thrown without being declared (by
     * Kotlin code, say), from here or from the call's {@link Tier2Call#await()}.
     *
     * <p>A client that wraps another should pass {@code job} on as it is: its {@link Job#stages()} tells a tier2 that
     * writes the jobs' outputs which stage is the last.
     *
     * @param job the unit to run and its attempt number
     * @return the admitted call; the engine always closes it
     * @throws Tier2Exception why the job was not taken, or failed while being taken
     * @throws InterruptedException if the request was cancelled while dialing
     */
    Tier2Call dial(Job job) throws Tier2Exception, InterruptedException;
}
