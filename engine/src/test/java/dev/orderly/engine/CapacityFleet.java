package dev.orderly.engine;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Client;
import dev.orderly.api.Tier2Exception;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A fleet of a fixed number of slots shared by many requests: a dial that finds no free slot is refused at once.
 * Each admitted job holds its slot for a short random time and writes its output. Thread-safe.
 */
final class CapacityFleet {

    private final Semaphore slots;
    private final AtomicInteger openCalls = new AtomicInteger();
    private final AtomicLong refusals = new AtomicLong();
    private final CountDownLatch never = new CountDownLatch(1);

    CapacityFleet(int slots) {
        this.slots = new Semaphore(slots);
    }

    /** The client of one request, writing to that request's store. */
    Tier2Client clientFor(RequestPlan plan, InMemoryOutputStore store) {
        return job -> {
            if (!slots.tryAcquire()) {
                refusals.incrementAndGet();
                throw Tier2Exception.refused("all slots busy");
            }
            openCalls.incrementAndGet();
            return new Call(plan, store, job);
        };
    }

    int openCalls() {
        return openCalls.get();
    }

    long refusals() {
        return refusals.get();
    }

    int freeSlots() {
        return slots.availablePermits();
    }

    private final class Call implements Tier2Call {
        private final RequestPlan plan;
        private final InMemoryOutputStore store;
        private final Job job;
        private final AtomicInteger closes = new AtomicInteger();

        Call(RequestPlan plan, InMemoryOutputStore store, Job job) {
            this.plan = plan;
            this.store = store;
            this.job = job;
        }

        @Override
        public void await() throws InterruptedException {
            // The job's simulated run time: up to half a millisecond, spread by the unit.
            JobKey key = job.key();
            never.await((key.segment() * 7 + key.stage() * 3) % 5 * 100, TimeUnit.MICROSECONDS);
            if (key.stage() == plan.lastStage()) {
                store.write(key.segment(), StubTier2.outputOf(key.segment()));
            }
        }

        @Override
        public void close() {
            if (closes.getAndIncrement() == 0) {
                openCalls.decrementAndGet();
                slots.release();
            }
        }
    }
}
