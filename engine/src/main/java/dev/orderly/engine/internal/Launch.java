package dev.orderly.engine.internal;

import dev.orderly.api.JobKey;

/**
 * One job to start: its unit, and how many times the unit was dialed by earlier jobs (non-zero only for the re-run
 * of a missing output), so that {@code Job.attempt} keeps counting the unit's dials from 1.
 *
 * @param key the unit
 * @param priorDials dials of this unit by its earlier jobs
 */
record Launch(JobKey key, int priorDials) {
}
