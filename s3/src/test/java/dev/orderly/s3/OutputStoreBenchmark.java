package dev.orderly.s3;

import dev.orderly.engine.FileOutputStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A measurement, not a test (no assertion; run on demand, see docs/results/s3.md): {@code W} concurrent writers, each
 * writing a 64 KiB output and reading it back, {@code N} times, against {@link S3OutputStore} on an S3Proxy on
 * loopback and against {@link FileOutputStore} on the local disk, in the same run. Prints p50 and p99 of one
 * write + read and the throughput, after an unmeasured warm-up of the same size.
 *
 * <p>Arguments: {@code [writers [pairsPerWriter]]}, default 16 and 100.
 */
public final class OutputStoreBenchmark {

    private static final int SIZE = 64 * 1024;

    /** The write and read of one store, as the benchmark calls them. */
    private interface Store {
        void write(long segment, byte[] output) throws Exception;

        byte[] read(long segment) throws Exception;
    }

    private OutputStoreBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int writers = args.length > 0 ? Integer.parseInt(args[0]) : 16;
        int pairs = args.length > 1 ? Integer.parseInt(args[1]) : 100;
        Path dir = Files.createTempDirectory("output-store-benchmark");
        System.out.printf(Locale.ROOT, "%d writers x %d write+read pairs of %d KiB, %d cores, %s %s%n", writers,
                pairs, SIZE / 1024, Runtime.getRuntime().availableProcessors(), System.getProperty("java.vm.name"),
                Runtime.version());
        FileOutputStore file = new FileOutputStore(dir.resolve("file"));
        run("FileOutputStore (local disk)", new Store() {
            public void write(long s, byte[] o) throws Exception {
                file.write(s, o);
            }

            public byte[] read(long s) throws Exception {
                return file.read(s).orElseThrow();
            }
        }, writers, pairs);
        try (S3ProxyFixture s3 = S3ProxyFixture.start(dir.resolve("s3"))) {
            s3.createBucket("bench");
            S3OutputStore store = S3OutputStore.builder().client(s3.client()).bucket("bench").prefix("r/").build();
            run("S3OutputStore (S3Proxy, loopback)", new Store() {
                public void write(long s, byte[] o) throws Exception {
                    store.write(s, o);
                }

                public byte[] read(long s) throws Exception {
                    return store.read(s).orElseThrow();
                }
            }, writers, pairs);
        }
    }

    private static void run(String name, Store store, int writers, int pairs) throws Exception {
        measure(store, writers, pairs, 0); // warm-up: class loading, JIT, connections
        long[] nanos = new long[writers * pairs];
        long start = System.nanoTime();
        measure(store, writers, pairs, writers * pairs, nanos);
        double seconds = (System.nanoTime() - start) / 1e9;
        Arrays.sort(nanos);
        System.out.printf(Locale.ROOT, "%-36s p50 %7.2f ms  p99 %7.2f ms  %8.0f pairs/s  %7.1f MiB/s written%n", name,
                nanos[nanos.length / 2] / 1e6, nanos[(int) (nanos.length * 0.99)] / 1e6, nanos.length / seconds,
                nanos.length * (double) SIZE / (1024 * 1024) / seconds);
    }

    private static void measure(Store store, int writers, int pairs, long firstSegment) throws Exception {
        measure(store, writers, pairs, firstSegment, new long[writers * pairs]);
    }

    private static void measure(Store store, int writers, int pairs, long firstSegment, long[] nanos)
            throws Exception {
        CountDownLatch go = new CountDownLatch(1);
        AtomicLong failures = new AtomicLong();
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            int writer = w;
            threads.add(Thread.ofPlatform().name("writer-" + w).start(() -> {
                byte[] output = new byte[SIZE];
                new Random(writer).nextBytes(output);
                try {
                    go.await();
                    for (int i = 0; i < pairs; i++) {
                        long segment = firstSegment + (long) writer * pairs + i;
                        long t0 = System.nanoTime();
                        store.write(segment, output);
                        byte[] back = store.read(segment);
                        nanos[writer * pairs + i] = System.nanoTime() - t0;
                        if (back.length != SIZE) {
                            failures.incrementAndGet();
                        }
                    }
                } catch (Exception e) {
                    failures.incrementAndGet();
                    e.printStackTrace();
                }
            }));
        }
        go.countDown();
        for (Thread t : threads) {
            t.join();
        }
        if (failures.get() > 0) {
            throw new IllegalStateException(failures.get() + " writers failed");
        }
    }
}
