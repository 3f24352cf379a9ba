/**
 * The simulator over real tier2 processes: {@code dev.orderly.tier2.Tier2Main} children on 127.0.0.1
 * ({@link dev.orderly.sim.tier2.Tier2Processes}), each running the simulated work behind a gRPC
 * {@code Tier2Server} ({@link dev.orderly.sim.tier2.SimulatedJobWorker}, made from the simulator's options by the
 * registered {@link dev.orderly.sim.tier2.SimulatedWorkerProvider}), and the tenants' view of them as one fleet
 * ({@link dev.orderly.sim.tier2.GrpcFleet}), used by {@code ./orderly fleet}.
 */
package dev.orderly.sim.tier2;
