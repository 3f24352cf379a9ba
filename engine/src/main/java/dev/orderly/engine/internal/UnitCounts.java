package dev.orderly.engine.internal;

/**
 * What a unit has been through over its whole life, across every job that ran it: dials (which number
 * {@code Job.attempt}), retryable failures and execution timeouts. The give-up limits {@code maxFailures} and
 * {@code maxExecutionTimeouts} bound these, so a re-run after a missing output starts from the unit's counts, not
 * from zero. Immutable.
 *
 * @param dials dials of the unit so far
 * @param failures retryable failures so far
 * @param timeouts execution timeouts so far
 * @param successes jobs of the unit that succeeded so far (a last stage whose output went missing has more than one)
 */
record UnitCounts(int dials, int failures, int timeouts, int successes) {

    /** A unit never run (or one found in the store, which no job ran). */
    static final UnitCounts NONE = new UnitCounts(0, 0, 0, 0);

    /** Counts with no job succeeded yet. */
    UnitCounts(int dials, int failures, int timeouts) {
        this(dials, failures, timeouts, 0);
    }

    /**
     * The counts of one job as it runs, starting from the unit's: lives on the job's own thread only (not
     * thread-safe), and is handed to the scheduler, as a {@link UnitCounts}, when the job ends.
     */
    static final class Tally {
        int dials;
        int failures;
        int timeouts;
        int successes;

        Tally(UnitCounts prior) {
            this.dials = prior.dials();
            this.failures = prior.failures();
            this.timeouts = prior.timeouts();
            this.successes = prior.successes();
        }

        UnitCounts counts() {
            return new UnitCounts(dials, failures, timeouts, successes);
        }
    }
}
