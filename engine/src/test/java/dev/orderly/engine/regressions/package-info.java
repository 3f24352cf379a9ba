/**
 * The engine's regression tests: each is named by the rule it pins, and each failed before the fix that made the rule
 * true (the fix and the failure are in its comment). They drive the engine through its public API and the testing
 * kit ({@code dev.orderly.testing}), with the engine tests' helpers ({@code Fixtures}, {@code RecordingClient},
 * {@code Background}, {@code ThreadCensus}, {@code JobEndLedger}).
 *
 * <p>Also pinned elsewhere, because they need package-private parts and so stay in their package:
 * {@code dev.orderly.api.EngineConfigEnvironmentTest} (an out-of-range value is shown as written; a number too large
 * for an {@code int} is named as such) and {@code dev.orderly.api.GoDurationTest} (the Greek mu is microseconds; only
 * ASCII digits count), both in the api module.
 */
package dev.orderly.engine.regressions;
