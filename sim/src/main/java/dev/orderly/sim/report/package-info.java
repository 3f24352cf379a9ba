/**
 * What a simulation shows: the comparison table (time to first segment, delivery lag, client stall, dials, refusals,
 * failures per strategy) and the SVG timeline. Every number and sentence is computed from the recorded runs.
 */
package dev.orderly.sim.report;
