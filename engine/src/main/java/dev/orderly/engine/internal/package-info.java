/**
 * The engine's implementation; not for use outside the engine, and free to change.
 *
 * <p>One request's parts, in the order a request meets them: {@code OrderlyEngine} makes a {@code RequestRun}, which
 * wires them and runs the request; the request scope ({@code RequestScope}: {@code StructuredRequestScope} or
 * {@code ThreadsRequestScope}, chosen by {@code RequestScopes}) owns the request's virtual threads and forks one job per unit; {@code Scheduler} (over
 * {@code UnitBoard}) picks the next unit; {@code JobRunner} runs one unit on the retry path, waiting at a
 * {@code DialGate} before each dial (the {@code LaunchQueue} in ordered mode, {@code DelayGate} in the unordered
 * baseline); {@code RunningJobs} cancels a job whose unit is no longer needed;
 * {@code OutputWalker} hands the outputs to the client in order. Every class that holds a lock states at its head which
 * fields the lock guards and the invariants it keeps. The whole picture: {@code docs/ARCHITECTURE.md}.
 */
package dev.orderly.engine.internal;
