/**
 * One simulation: a scenario (the request, the fleet, the competing tenants) run once per strategy (ordered launch,
 * the unordered baseline, a mix) against a fresh fleet with the same seed, with every job's queued, dialing and running
 * spans recorded for the report.
 */
package dev.orderly.sim.run;
