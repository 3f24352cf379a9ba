/**
 * The engine's cost per job against the executor a user would write by hand: {@link
 * dev.orderly.bench.cost.EngineCost} runs both, interleaved in one JVM, over the same instant tier2, output store and
 * client, and prints the medians and the Orderly/hand-written ratios.
 */
package dev.orderly.bench.cost;
