package dev.orderly.s3;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.Request;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.RequestResult;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Client;
import dev.orderly.engine.Orderly;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;

/**
 * A measurement, not a test (run on demand, see docs/results/s3.md): one request of 10,000 segments through the
 * engine with its outputs in S3 (S3Proxy on loopback). Each job writes its 4 KiB output with one PUT, the engine reads
 * each with one GET. Prints the live heap after a full GC when segments 1,000 and 10,000 are delivered: with the
 * engine's bounded look-ahead they should be alike.
 *
 * <p>Arguments: {@code [segments [workers]]}, default 10000 and 16.
 */
public final class LongRequestOverS3Measurement {

    private LongRequestOverS3Measurement() {
    }

    public static void main(String[] args) throws Exception {
        int segments = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        int workers = args.length > 1 ? Integer.parseInt(args[1]) : 16;
        Path dir = Files.createTempDirectory("long-request-over-s3");
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        try (S3ProxyFixture s3 = S3ProxyFixture.start(dir)) {
            s3.createBucket("long");
            S3OutputStore store = S3OutputStore.builder().client(s3.client()).bucket("long").prefix("r/").build();
            byte[] output = new byte[4096];
            Tier2Client tier2 = job -> new Tier2Call() { // an in-process tier2 that writes to the bucket
                @Override
                public void await() throws dev.orderly.api.Tier2Exception {
                    try {
                        store.write(job.key().segment(), output);
                    } catch (java.io.IOException e) {
                        throw dev.orderly.api.Tier2Exception.retryable("write failed", e);
                    }
                }
            };
            long start = System.nanoTime();
            RequestResult result = Orderly.engine(EngineConfig.defaults()).run(Request.of(
                    new RequestPlan(0, segments, 1, workers), tier2, store, (segment, out) -> {
                        if (segment + 1 == 1_000 || segment + 1 == segments) {
                            System.gc();
                            System.gc();
                            System.out.printf(Locale.ROOT, "after %,d segments: live heap %.1f MiB, %.0f s%n",
                                    segment + 1, memory.getHeapMemoryUsage().getUsed() / (1024.0 * 1024),
                                    (System.nanoTime() - start) / 1e9);
                        }
                    }));
            System.out.printf(Locale.ROOT, "%,d segments delivered in %s, %,d dials%n", result.segmentsDelivered(),
                    Duration.ofNanos(System.nanoTime() - start).withNanos(0), result.dials());
        }
    }
}
