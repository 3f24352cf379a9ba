/**
 * For embedders' tests of their own {@link dev.orderly.grpc.JobWorker}: {@link dev.orderly.grpc.testing.LocalTier2},
 * a real {@link dev.orderly.grpc.Tier2Server} and {@link dev.orderly.grpc.GrpcTier2Client} on loopback. The fake
 * fleets for tests that need no transport are in {@code orderly-testing}.
 */
package dev.orderly.grpc.testing;
