package dev.orderly.engine.internal;

import dev.orderly.api.JobKey;
import dev.orderly.api.RequestPlan;

/** Schedulers in the states the stress suites start from: 32 segments, one stage, nothing delivered yet. */
final class Schedulers {

    private static final UnitCounts ONE_DIAL = new UnitCounts(1, 0, 0);

    private Schedulers() {
    }

    /**
     * {@code workers} workers and a look-ahead of {@code lookahead}: the first {@code handedOut} segments were handed
     * out, and the jobs of the first {@code done} of them succeeded.
     */
    static Scheduler started(int workers, int lookahead, int handedOut, int done) {
        Scheduler scheduler = new Scheduler(new RequestPlan(0, 32, 1, workers), lookahead);
        int got;
        try {
            got = scheduler.awaitNextJobs(new JobKey[handedOut], new UnitCounts[handedOut]);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("set-up interrupted", e);
        }
        if (got != handedOut) {
            throw new IllegalStateException("set-up: expected " + handedOut + " units handed out, got " + got);
        }
        for (int segment = 0; segment < done; segment++) {
            jobSucceeded(scheduler, segment);
        }
        return scheduler;
    }

    /** The job of {@code segment} (stage 0) succeeded after one dial. */
    static void jobSucceeded(Scheduler scheduler, long segment) {
        scheduler.jobEnded(new JobKey(segment, 0), true, ONE_DIAL);
    }
}
