/**
 * The deployable tier2 process: {@link dev.orderly.tier2.Tier2Main} runs the embedder's
 * {@link dev.orderly.grpc.JobWorker} behind a {@link dev.orderly.grpc.Tier2Server}, found on the class path or named on
 * the command line ({@link dev.orderly.tier2.JobWorkerProvider} for a worker that takes options), writing the outputs
 * where the tier1 reads them. See docs/guide/run-your-own-tier2.md.
 */
package dev.orderly.tier2;
