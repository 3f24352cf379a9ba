/**
 * The engine's regression tests: each pins a rule that a bug once broke, and is named by that rule (two older ones
 * by their issue: {@code Issue9RegressionTest}, {@code FailedRequestRegressionTest}). They use the engine's public
 * API, the testing kit ({@code dev.orderly.testing}) and the engine tests' helpers ({@code Fixtures},
 * {@code RecordingClient}, {@code Background}, {@code ThreadCensus}, {@code JobEndLedger}).
 *
 * <p>Also pinned elsewhere: regression cases inside the tests of one api class, kept with the rest of that class's
 * tests in the api module: {@code dev.orderly.api.EngineConfigEnvironmentTest} (an out-of-range value is shown as
 * written; a number too large for an {@code int} is named as such) and {@code dev.orderly.api.GoDurationTest} (the
 * Greek mu is microseconds; only ASCII digits count).
 */
package dev.orderly.engine.regressions;
