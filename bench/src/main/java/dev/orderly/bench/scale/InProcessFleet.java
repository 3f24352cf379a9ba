package dev.orderly.bench.scale;

import dev.orderly.api.Job;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Client;
import dev.orderly.api.Tier2Exception;
import dev.orderly.engine.InMemoryOutputStore;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/**
 * A fleet of tier2 instances in this process, for the scale runs: {@code capacity} slots shared by every request;
 * a dial takes a slot or, when all are taken, is refused at once (nothing ran). An admitted job holds its slot for
 * {@code work} (a sleep of its virtual thread; zero means the job ends as soon as it is awaited), then writes the
 * output of a last-stage unit to its request's {@link InMemoryOutputStore}.
 *
 * <p>This class is thread-safe.
 */
final class InProcessFleet {

    private final Semaphore slots;
    private final int capacity;
    private final Duration work;
    private final LongAdder admitted = new LongAdder();
    private final LongAdder refused = new LongAdder();

    /**
     * @param capacity the number of jobs the fleet runs at once, {@code >= 1}
     * @param work how long each admitted job runs, {@code >= 0}
     */
    InProcessFleet(int capacity, Duration work) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be >= 1, was " + capacity);
        }
        if (work.isNegative()) {
            throw new IllegalArgumentException("work must be >= 0, was " + work);
        }
        this.capacity = capacity;
        this.slots = new Semaphore(capacity);
        this.work = work;
    }

    /** The client one request dials: its last stage is {@code lastStage}, its outputs go to {@code outputs}. */
    Tier2Client clientFor(int lastStage, InMemoryOutputStore outputs) {
        Objects.requireNonNull(outputs, "outputs");
        return job -> dial(job, lastStage, outputs);
    }

    private Tier2Call dial(Job job, int lastStage, InMemoryOutputStore outputs) throws Tier2Exception {
        if (!slots.tryAcquire()) {
            refused.increment();
            throw Tier2Exception.refused("all " + capacity + " slots of the fleet are taken");
        }
        admitted.increment();
        return new Call(job, lastStage, outputs);
    }

    /** Jobs the fleet took. */
    long admitted() {
        return admitted.sum();
    }

    /** Dials the fleet refused because it was full. */
    long refused() {
        return refused.sum();
    }

    /** Slots free right now. */
    int freeSlots() {
        return slots.availablePermits();
    }

    /** One admitted job; gives its slot back exactly once, on close. */
    private final class Call implements Tier2Call {
        private final Job job;
        private final int lastStage;
        private final InMemoryOutputStore outputs;
        private final AtomicBoolean closed = new AtomicBoolean();

        Call(Job job, int lastStage, InMemoryOutputStore outputs) {
            this.job = job;
            this.lastStage = lastStage;
            this.outputs = outputs;
        }

        @Override
        public void await() throws InterruptedException {
            if (work.isPositive()) {
                Thread.sleep(work);
            }
            if (job.key().stage() == lastStage) {
                long segment = job.key().segment();
                outputs.write(segment, new byte[] {(byte) segment, (byte) (segment >>> 8)});
            }
        }

        @Override
        public void close() {
            if (closed.compareAndSet(false, true)) {
                slots.release();
            }
        }
    }
}
