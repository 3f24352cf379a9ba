package dev.orderly.engine.internal;

/**
 * What a unit has been through over its whole life, across every job that ran it: dials (which number
 * {@code Job.attempt}), retryable failures and execution timeouts. The give-up limits {@code maxFailures} and
 * {@code maxExecutionTimeouts} bound these, so a re-run after a missing output, or the next job of a unit whose job
 * was withdrawn, starts from the unit's counts, not from zero. Immutable.
 *
 * @param dials dials of the unit so far
 * @param failures retryable failures so far
 * @param timeouts execution timeouts so far
 * @param successes jobs of the unit that succeeded so far (a last stage whose output went missing has more than one)
 * @param failureDelayOwed the unit's last dial got in and failed, and no dial has been made since: its next dial,
 *     whichever job makes it, waits {@code failureDelay} first (a job withdrawn in its delay leaves it to the next)
 * @param refusedDelayOwed the unit's last dial was refused (nothing ran), and no dial has been made since: its next
 *     dial, whichever job makes it, waits {@code refusedDelay} first, as a refused job's redial does (a job withdrawn
 *     in its delay leaves it to the next)
 */
record UnitCounts(int dials, int failures, int timeouts, int successes, boolean failureDelayOwed,
        boolean refusedDelayOwed) {

    /** A unit never run (or one found in the store, which no job ran). */
    static final UnitCounts NONE = new UnitCounts(0, 0, 0, 0);

    // The counts nearly every unit ends with (a few dials, no failure, no timeout, one success or two), made once:
    // the end of such a job allocates nothing for them. Indexed by dials * PLAIN_SUCCESSES + successes.
    private static final int PLAIN_DIALS = 8;
    private static final int PLAIN_SUCCESSES = 3;
    private static final UnitCounts[] PLAIN = new UnitCounts[PLAIN_DIALS * PLAIN_SUCCESSES];

    static {
        for (int dials = 0; dials < PLAIN_DIALS; dials++) {
            for (int successes = 0; successes < PLAIN_SUCCESSES; successes++) {
                PLAIN[dials * PLAIN_SUCCESSES + successes] = new UnitCounts(dials, 0, 0, successes);
            }
        }
    }

    /** These counts; a shared instance for the common ones (counts are values: compare them with equals). */
    static UnitCounts of(int dials, int failures, int timeouts, int successes) {
        if (failures == 0 && timeouts == 0 && dials >= 0 && dials < PLAIN_DIALS && successes >= 0
                && successes < PLAIN_SUCCESSES) {
            return PLAIN[dials * PLAIN_SUCCESSES + successes];
        }
        return new UnitCounts(dials, failures, timeouts, successes);
    }

    /** Counts that owe no refused delay. */
    UnitCounts(int dials, int failures, int timeouts, int successes, boolean failureDelayOwed) {
        this(dials, failures, timeouts, successes, failureDelayOwed, false);
    }

    /** Counts that owe no delay. */
    UnitCounts(int dials, int failures, int timeouts, int successes) {
        this(dials, failures, timeouts, successes, false, false);
    }

    /** Counts with no job succeeded yet. */
    UnitCounts(int dials, int failures, int timeouts) {
        this(dials, failures, timeouts, 0);
    }

    /**
     * The counts of one job as it runs, starting from the unit's: lives on the job's own thread only (not
     * thread-safe), and is handed to the scheduler, as a {@link UnitCounts}, when the job ends. Not final: a running
     * job's {@link JobHandle} is its tally too, so that a job is one object.
     */
    static class Tally {
        int dials;
        int failures;
        int timeouts;
        int successes;
        boolean failureDelayOwed;
        boolean refusedDelayOwed;

        Tally(UnitCounts prior) {
            this.dials = prior.dials();
            this.failures = prior.failures();
            this.timeouts = prior.timeouts();
            this.successes = prior.successes();
            this.failureDelayOwed = prior.failureDelayOwed();
            this.refusedDelayOwed = prior.refusedDelayOwed();
        }

        UnitCounts counts() {
            return failureDelayOwed || refusedDelayOwed
                    ? new UnitCounts(dials, failures, timeouts, successes, failureDelayOwed, refusedDelayOwed)
                    : of(dials, failures, timeouts, successes);
        }
    }
}
