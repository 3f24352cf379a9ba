/**
 * A kit for tests of code that embeds Orderly: fakes of the tier2 fleet that are real
 * {@link dev.orderly.api.Tier2Client}s and {@link dev.orderly.api.OutputStore}s, each with an {@link EventLog} of
 * every dial and outcome.
 *
 * <ul>
 *   <li>{@link ScriptedTier2}: per-unit {@link Script}s (refused {@code n} times, fail, time out, fail fatally, run
 *       until a {@link Hold} is released, lose the output), for tests of one behaviour.
 *   <li>{@link InMemoryFleet}: {@code instances x slots} shared by many requests, a random instance per dial, refusal
 *       at the limit, for tests of load and limits.
 * </ul>
 *
 * <p>The kit depends on {@code orderly-api} only. Every class is thread-safe.
 */
package dev.orderly.testing;
