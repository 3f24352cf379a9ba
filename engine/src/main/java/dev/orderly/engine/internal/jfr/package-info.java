/**
 * The engine's JFR events ({@code dev.orderly.LaunchWait}, {@code dev.orderly.Dial}, {@code dev.orderly.JobRun},
 * {@code dev.orderly.SegmentDelivered}, category {@code Orderly}) and
 * {@link dev.orderly.engine.internal.jfr.JfrListener}, the listener decorator that builds them from a request's
 * listener events, so the launch queue carries no JFR code. Not for use outside the engine.
 */
package dev.orderly.engine.internal.jfr;
