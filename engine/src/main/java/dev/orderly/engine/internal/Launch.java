package dev.orderly.engine.internal;

import dev.orderly.api.JobKey;

/**
 * One job to start: its unit, and what earlier jobs of the unit went through (non-zero only for the re-run of a
 * missing output), so that {@code Job.attempt} keeps counting the unit's dials from 1 and the give-up limits bound
 * the unit's whole life.
 *
 * @param key the unit
 * @param prior the unit's counts from its earlier jobs
 */
record Launch(JobKey key, UnitCounts prior) {
}
