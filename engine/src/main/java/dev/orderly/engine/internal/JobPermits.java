package dev.orderly.engine.internal;

/**
 * One request's permits under the engine-wide job cap ({@code EngineConfig.maxConcurrentJobs}): what its
 * {@link Scheduler} asks before it hands a job out, and tells when a job ends. {@link #UNLIMITED} when the engine has
 * no cap: every job may start, and nothing is counted.
 *
 * <p>Lock order: the scheduler calls {@link #take}, {@link #withdraw}, {@link #release}, {@link #keep},
 * {@link #wouldWait} and {@link #close} while it holds its own lock; the cap's lock is taken inside it and never calls
 * out, so no cycle is possible. {@link #awaitPermit} is the one wait, and is called with no lock held.
 */
interface JobPermits {

    /**
     * Wants a permit for the next job: true if the request now holds one for it; false if it must wait
     * ({@link #awaitPermit}) or its permits are closed.
     */
    boolean take();

    /**
     * Waits until a permit is handed to this request, it no longer waits for one, or it is closed; the caller then
     * asks {@link #take} again. Called with no lock held.
     *
     * @throws InterruptedException if interrupted; the request no longer waits, and a permit handed to it meanwhile
     *     goes on to the next request
     */
    void awaitPermit() throws InterruptedException;

    /** The request wants no permit now: it leaves the waiting; a permit handed to it and not taken goes on. */
    void withdraw();

    /** A job of the request has ended: its permit goes to the request whose turn it is. */
    default void release() {
        release(false);
    }

    /**
     * A job of the request has ended: its permit goes to the request whose turn it is, this one among them when
     * {@code wantsAnother} (it has its next unit to launch already).
     */
    void release(boolean wantsAnother);

    /**
     * A job of the request gave its worker up for the re-run of the client's segment: its permit stays with the
     * request, for that re-run.
     */
    void keep();

    /** Whether {@link #take} would return false now (no permit handed to the request and none free). */
    boolean wouldWait();

    /**
     * The request stopped (done, failed or cancelled): it leaves the waiting at once, a permit handed to it goes on, a
     * wait in {@link #awaitPermit} ends, and {@link #take} says no from now on. Its alive jobs still
     * {@link #release} theirs as they end. Idempotent.
     */
    void close();

    /** No cap: every job may start. */
    JobPermits UNLIMITED = new JobPermits() {
        @Override
        public boolean take() {
            return true;
        }

        @Override
        public void awaitPermit() {
        }

        @Override
        public void withdraw() {
        }

        @Override
        public void release(boolean wantsAnother) {
        }

        @Override
        public void keep() {
        }

        @Override
        public boolean wouldWait() {
            return false;
        }

        @Override
        public void close() {
        }

        @Override
        public String toString() {
            return "no engine-wide job cap";
        }
    };
}
