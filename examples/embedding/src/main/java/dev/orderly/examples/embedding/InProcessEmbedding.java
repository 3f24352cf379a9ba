package dev.orderly.examples.embedding;

import dev.orderly.api.Engine;
import dev.orderly.api.EngineConfig;
import dev.orderly.api.Job;
import dev.orderly.api.Request;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.RequestResult;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Client;
import dev.orderly.api.Tier2Exception;
import dev.orderly.engine.FileOutputStore;
import dev.orderly.engine.Orderly;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

/**
 * Orderly embedded in a program, with a fleet that lives in the same JVM: a few slots that refuse a job when all are
 * taken, the way a tier2 instance at its limit does. The engine dials again, in the order the client reads, and the
 * client prints every segment in order.
 *
 * <p>Run it: {@code java -cp <this jar, orderly-api, orderly-engine, slf4j> dev.orderly.examples.embedding.InProcessEmbedding}.
 */
public final class InProcessEmbedding {

    private InProcessEmbedding() {
    }

    public static void main(String[] args) throws Exception {
        Path outputs = Files.createTempDirectory("orderly-example-");
        try {
            RequestResult result = run(outputs, System.out);
            System.out.println(result);
        } finally {
            try (Stream<Path> files = Files.walk(outputs)) {
                for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }

    /**
     * One request of 40 segments × 2 stages with 8 workers, on a fleet of 3 slots, its outputs in files under
     * {@code outputs}; each segment the client reads is printed to {@code out}, in order.
     */
    public static RequestResult run(Path outputs, PrintStream out) throws Exception {
        FileOutputStore store = new FileOutputStore(outputs);
        RequestPlan plan = new RequestPlan(0, 40, 2, 8);
        Tier2Client fleet = new SmallFleet(3, plan, store);
        Engine engine = Orderly.engine(EngineConfig.builder()
                .refusedDelay(Duration.ofMillis(5))       // the fleet is in-process: redial soon
                .build());
        return engine.run(Request.of(plan, fleet, store,
                (segment, output) -> out.println(new String(output, StandardCharsets.UTF_8))));
    }

    /**
     * A stand-in fleet: {@code slots} jobs at once, refused at once beyond that (nothing ran, so the engine does not
     * count it as a failure). A job runs for a millisecond; a last-stage job writes its segment's output where the
     * {@link FileOutputStore} reads it, as a tier2 would write to shared storage.
     */
    private static final class SmallFleet implements Tier2Client {
        private final Semaphore slots;
        private final RequestPlan plan;
        private final FileOutputStore outputs;

        SmallFleet(int slots, RequestPlan plan, FileOutputStore outputs) {
            this.slots = new Semaphore(slots);
            this.plan = plan;
            this.outputs = outputs;
        }

        @Override
        public Tier2Call dial(Job job) throws Tier2Exception {
            if (!slots.tryAcquire()) {
                throw Tier2Exception.refused("all slots are busy");
            }
            AtomicBoolean released = new AtomicBoolean();
            return new Tier2Call() {

                @Override
                public void await() throws InterruptedException {
                    Thread.sleep(1); // the job's work
                    if (job.key().stage() == plan.lastStage()) {
                        write(job.key().segment());
                    }
                }

                @Override
                public void close() {
                    if (released.compareAndSet(false, true)) { // close may come twice, from another thread
                        slots.release();
                    }
                }
            };
        }

        private void write(long segment) {
            try {
                outputs.write(segment,
                        ("segment " + segment + ", computed in-process").getBytes(StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
