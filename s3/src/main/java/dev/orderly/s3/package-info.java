/**
 * Outputs in S3: {@link dev.orderly.s3.S3OutputStore}, the {@link dev.orderly.api.OutputStore} a tier1 reads and a
 * tier2 writes when they run on different machines, and {@link dev.orderly.s3.S3Clients}, an AWS SDK v2 client with
 * explicit timeouts and retries.
 */
package dev.orderly.s3;
