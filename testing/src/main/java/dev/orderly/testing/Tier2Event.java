package dev.orderly.testing;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import java.util.Objects;

/**
 * One thing a fake tier2 saw or did, in the order it happened.
 *
 * @param sequence the event's place in its {@link EventLog}, from 0; consecutive and unique within a log
 * @param type what happened
 * @param job the job it happened to
 * @param instance the fleet instance that took the dial, or -1 where there are no instances ({@link ScriptedTier2})
 */
public record Tier2Event(long sequence, Type type, Job job, int instance) {

    /** What happened. */
    public enum Type {
        /** {@code dial} was called. */
        DIALED,
        /** The dial was refused (REFUSED): the tier2 was at its limit; nothing ran. */
        REFUSED,
        /** The dial found no tier2 (UNREACHABLE); nothing ran. */
        UNREACHABLE,
        /** The tier2 took the job: {@code dial} returned a call. */
        ADMITTED,
        /** A dial, or an admitted job, is held until its {@link Hold} is released. */
        HELD,
        /** The job ended well; a last-stage job's output is in the store. */
        SUCCEEDED,
        /** The job ended well but its output was lost: the store has nothing for the segment. */
        OUTPUT_LOST,
        /** The job failed after it got in (RETRYABLE). */
        FAILED,
        /** The job ran out of time (EXECUTION_TIMEOUT). */
        TIMED_OUT,
        /** The job failed in a way no retry can fix (FATAL). */
        FATAL,
        /**
         * {@code dial} threw the error its script named ({@link Script#throwOnDial}), or its
         * {@link ScriptedTier2.DialRule} threw or returned no script.
         */
        DIAL_THREW,
        /** {@code await} threw the error its script named ({@link Script#throwOnAwait}). */
        AWAIT_THREW,
        /**
         * The job was cut short: its thread interrupted (in a held dial or job, or in a {@link ScriptedTier2.DialRule}
         * that blocks), or its call closed before it ended (a cancelled job).
         */
        INTERRUPTED,
        /** The call was closed (its slot, if any, is free again). */
        CLOSED
    }

    /**
     * @throws NullPointerException if {@code type} or {@code job} is null
     */
    public Tier2Event {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(job, "job");
    }

    /** The unit of the job. */
    public JobKey key() {
        return job.key();
    }
}
