/**
 * The gRPC transport: {@link dev.orderly.grpc.GrpcTier2Client}, a {@link dev.orderly.api.Tier2Client} that hands each
 * job to a tier2 over {@code orderly.tier2.v1.Tier2/ProcessRange} (dial returns on {@code Admitted}; a full tier2 is
 * REFUSED, an unreachable or draining one UNREACHABLE), and {@link dev.orderly.grpc.Tier2Server}, a tier2 with an
 * admission limit, health status and drain, running a {@link dev.orderly.grpc.JobWorker} per job.
 *
 * <p>This module depends on the api only: run it with the engine ({@code dev.orderly:orderly-engine}); the engine
 * knows nothing of gRPC.
 */
package dev.orderly.grpc;
