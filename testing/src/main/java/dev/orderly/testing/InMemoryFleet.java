package dev.orderly.testing;

import dev.orderly.api.Job;
import dev.orderly.api.OutputStore;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Client;
import dev.orderly.api.Tier2Exception;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A fleet of {@code instances x slots} tier2 slots in memory, shared by any number of requests, as a real fleet
 * behind a load balancer is: each dial goes to a random instance (seeded: the same dials in the same order go to the
 * same instances, which repeats a run that dials from one thread; the engine dials from many, whose order the
 * scheduler decides, so a run of it is not repeated dial for dial), and an instance with every slot busy refuses the
 * job at once (REFUSED). An admitted job holds its slot for {@code jobTime} (its
 * thread parked, which an interrupt ends), writes its output if it is a last-stage job, and frees the slot when its
 * call is closed. A call closed before its job ended ends the job at once, as a tier2 cancels the job of a call its
 * client closed: its {@code await} throws {@link InterruptedException} and writes nothing. A call's {@code await} is
 * taken once, as the engine calls it; a second one throws {@link IllegalStateException} naming the job and changes
 * nothing.
 *
 * <pre>{@code
 * InMemoryFleet fleet = InMemoryFleet.builder().instances(2).slotsPerInstance(3).jobTime(Duration.ofMillis(1)).build();
 * InMemoryFleet.Tenant tenant = fleet.tenant(plan);        // one per request
 * engine.run(Request.of(plan, tenant.client(), tenant.outputs(), client));
 * assertTrue(fleet.peakBusySlots() <= fleet.capacity());
 * }</pre>
 *
 * <p>Invariants (guarded by {@code lock}): {@code busy} maps each instance with a busy slot to how many,
 * {@code 1 <= busy.get(i) <= slotsPerInstance}, and holds no instance with none (so a fleet of any number of
 * instances costs memory only for the slots in use);
 * {@code peakBusy} is the largest sum of {@code busy} ever seen; {@code admissions} and {@code refusals} count every
 * dial; each admitted call frees its slot exactly once. Every dial and outcome goes to {@link #log()}, with the
 * instance it went to (a dial, its admission or refusal, and a close are logged under {@code lock} with the slot they
 * take or free, so the log, replayed, never shows an instance over its slots or refusing with one free), unless the
 * fleet was built with {@link Builder#keepLog(boolean) keepLog(false)} (a long load run, whose log would grow without
 * bound). This class is thread-safe.
 */
public final class InMemoryFleet {

    private final int instances;
    private final int slotsPerInstance;
    private final Duration jobTime;
    private final boolean keepLog;
    private final EventLog log = new EventLog();
    private final ReentrantLock lock = new ReentrantLock();
    // guarded by lock
    private final Map<Integer, Integer> busy = new HashMap<>();
    // guarded by lock
    private final SplittableRandom random;
    // guarded by lock
    private int busyTotal;
    // guarded by lock
    private int peakBusy;
    // guarded by lock
    private long admissions;
    // guarded by lock
    private long refusals;

    private InMemoryFleet(Builder b) {
        this.instances = b.instances;
        this.slotsPerInstance = b.slotsPerInstance;
        this.jobTime = b.jobTime;
        this.keepLog = b.keepLog;
        this.random = new SplittableRandom(b.seed);
    }

    /** A builder: 1 instance of 1 slot, jobs that take no time, seed 1. */
    public static Builder builder() {
        return new Builder();
    }

    /** The connection of one request to the fleet: its client, and the store its jobs write to. */
    public Tenant tenant(RequestPlan plan) {
        return new Tenant(Objects.requireNonNull(plan, "plan"), null);
    }

    /** The connection of one request to the fleet whose jobs write to the test's own store through {@code sink}. */
    public Tenant tenant(RequestPlan plan, OutputSink sink) {
        return new Tenant(Objects.requireNonNull(plan, "plan"), Objects.requireNonNull(sink, "sink"));
    }

    /** Every dial and outcome, of every tenant, in order. */
    public EventLog log() {
        return log;
    }

    /** All slots of all instances, at most {@link Integer#MAX_VALUE} (a fleet of unbounded instances). */
    public int capacity() {
        // In a long: slotsPerInstance(Integer.MAX_VALUE), a fleet that never refuses, must not wrap the int.
        return (int) Math.min(Integer.MAX_VALUE, (long) instances * slotsPerInstance);
    }

    /** Slots busy right now. */
    public int busySlots() {
        lock.lock();
        try {
            return busyTotal;
        } finally {
            lock.unlock();
        }
    }

    /** Dials that took a slot, over every tenant. */
    public long admissions() {
        lock.lock();
        try {
            return admissions;
        } finally {
            lock.unlock();
        }
    }

    /** Dials refused because their instance was full, over every tenant. */
    public long refusals() {
        lock.lock();
        try {
            return refusals;
        } finally {
            lock.unlock();
        }
    }

    /** The most slots that were ever busy at once. */
    public int peakBusySlots() {
        lock.lock();
        try {
            return peakBusy;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Takes a slot on a random instance for {@code job} and logs the dial and its outcome with it, under the lock, so
     * that the log's order is the slots' order; returns the instance, or {@code -1 - instance} if it is full.
     */
    private int admit(Job job) {
        lock.lock();
        try {
            int instance = random.nextInt(instances);
            int taken = busy.getOrDefault(instance, 0);
            record(Tier2Event.Type.DIALED, job, instance);
            if (taken == slotsPerInstance) {
                refusals++;
                record(Tier2Event.Type.REFUSED, job, instance);
                return -1 - instance;
            }
            busy.put(instance, taken + 1);
            busyTotal++;
            admissions++;
            peakBusy = Math.max(peakBusy, busyTotal);
            record(Tier2Event.Type.ADMITTED, job, instance);
            return instance;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Frees a slot of {@code instance} and logs {@code job}'s close with it, under the lock (as {@link #admit}), after
     * cancelling its call's {@code state} if the job still runs, in the same hold: returns whether it was cancelled.
     */
    private boolean free(int instance, Job job, AtomicInteger state) {
        lock.lock();
        try {
            boolean cancelled = state.compareAndSet(Tenant.Call.OPEN, Tenant.Call.CANCELLED);
            // an instance whose last slot frees leaves the map: it holds only the instances in use
            busy.computeIfPresent(instance, (i, taken) -> taken == 1 ? null : taken - 1);
            busyTotal--;
            record(Tier2Event.Type.CLOSED, job, instance);
            return cancelled;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Logs that {@code job} was cut short, under the lock: a job cut short by its call's close saw the cancel that
     * {@link #free} makes in its hold of the lock, so its INTERRUPTED comes after that close's CLOSED, as the close
     * came first.
     */
    private void cutShort(int instance, Job job) {
        lock.lock();
        try {
            record(Tier2Event.Type.INTERRUPTED, job, instance);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Holds the calling thread for {@code jobTime}, or until it is interrupted or {@code call} is closed (close
     * unparks it). It parks the thread alone, with no shared lock, so thousands of jobs running at once do not queue
     * on one another when they wake.
     */
    private void run(Tenant.Call call) throws InterruptedException {
        // A jobTime past Long.MAX_VALUE ns (about 292 years, a test's "until cancelled") saturates instead of
        // overflowing: the job then runs until its thread is interrupted. The deadline may wrap; the difference
        // below does not.
        long nanos = saturatedNanos(jobTime);
        long deadline = System.nanoTime() + nanos;
        for (long left = nanos; left > 0; left = deadline - System.nanoTime()) {
            if (call.cancelled()) {
                return;
            }
            LockSupport.parkNanos(this, left);
            if (Thread.interrupted()) {
                throw new InterruptedException("job cut short");
            }
        }
    }

    private static long saturatedNanos(Duration duration) {
        try {
            return duration.toNanos();
        } catch (ArithmeticException tooLong) {
            return Long.MAX_VALUE;
        }
    }

    /** One request's view of the fleet. Thread-safe. */
    public final class Tenant {
        private final int lastStage;
        private final MemoryOutputs outputs = new MemoryOutputs();
        private final OutputSink sink;

        private Tenant(RequestPlan plan, OutputSink sink) {
            this.lastStage = plan.stages() - 1;
            this.sink = sink == null ? outputs : sink;
        }

        /** The client to give the request. */
        public Tier2Client client() {
            return this::dial;
        }

        /**
         * The store to give the request: a last-stage job writes {@code "output <segment>"} (UTF-8) here, unless the
         * tenant was made with a sink.
         */
        public OutputStore outputs() {
            return outputs;
        }

        private Tier2Call dial(Job job) throws Tier2Exception {
            Objects.requireNonNull(job, "job");
            int instance = admit(job);
            if (instance < 0) {
                int full = -1 - instance;
                throw Tier2Exception.refused("instance " + full + " is at its limit of " + slotsPerInstance);
            }
            return new Call(job, instance);
        }

        /**
         * One admitted job, holding one slot of {@code instance} until closed. Its own thread runs {@code await};
         * {@code close} may come from any thread, at any time. {@code state} goes once from OPEN to ENDED (the job
         * ran its time) or to CANCELLED (closed first), whichever comes first, so a job either ends before its
         * close or writes nothing. {@code runner} is set before the job parks and read by close after it cancels:
         * both volatile, so either close sees the thread to unpark or the job sees CANCELLED before it parks.
         * {@code awaited} goes once from false to true, at the first {@code await}: a second one is refused before it
         * touches anything.
         */
        private final class Call implements Tier2Call {
            private static final int OPEN = 0;
            private static final int ENDED = 1;
            private static final int CANCELLED = 2;

            private final Job job;
            private final int instance;
            private final AtomicBoolean closed = new AtomicBoolean();
            private final AtomicInteger state = new AtomicInteger(OPEN);
            private final AtomicBoolean awaited = new AtomicBoolean();
            private volatile Thread runner;

            Call(Job job, int instance) {
                this.job = job;
                this.instance = instance;
            }

            boolean cancelled() {
                return state.get() == CANCELLED;
            }

            @Override
            public void await() throws InterruptedException {
                if (!awaited.compareAndSet(false, true)) {
                    throw SecondAwait.refused(job);
                }
                runner = Thread.currentThread();
                try {
                    run(this);
                    if (!state.compareAndSet(OPEN, ENDED)) {
                        throw new InterruptedException("call closed before the job ended");
                    }
                } catch (InterruptedException e) {
                    cutShort(instance, job);
                    throw e;
                } finally {
                    runner = null;
                }
                if (job.key().stage() == lastStage) {
                    sink.write(job.key().segment(), MemoryOutputs.outputOf(job.key().segment()));
                }
                record(Tier2Event.Type.SUCCEEDED, job, instance);
            }

            @Override
            public void close() {
                if (closed.compareAndSet(false, true)) {
                    // The cancel and the close are logged in one hold of the lock, and the job wakes only after: a
                    // job the close cut short logs its INTERRUPTED after this CLOSED, never before.
                    if (free(instance, job, state)) {
                        Thread running = runner;
                        if (running != null) {
                            LockSupport.unpark(running);
                        }
                    }
                }
            }
        }
    }

    private void record(Tier2Event.Type type, Job job, int instance) {
        if (keepLog) {
            log.record(type, job, instance);
        }
    }

    /** Builds an {@link InMemoryFleet}. Not thread-safe. */
    public static final class Builder {
        private int instances = 1;
        private int slotsPerInstance = 1;
        private Duration jobTime = Duration.ZERO;
        private long seed = 1;
        private boolean keepLog = true;

        private Builder() {
        }

        /** How many instances, {@code >= 1}; any number costs no memory until its instances run jobs. */
        public Builder instances(int instances) {
            if (instances < 1) {
                throw new IllegalArgumentException("instances must be >= 1, was " + instances);
            }
            this.instances = instances;
            return this;
        }

        /** How many jobs one instance runs at once, {@code >= 1}. */
        public Builder slotsPerInstance(int slots) {
            if (slots < 1) {
                throw new IllegalArgumentException("slotsPerInstance must be >= 1, was " + slots);
            }
            this.slotsPerInstance = slots;
            return this;
        }

        /**
         * How long an admitted job holds its slot, {@code >= 0}; one over about 292 years (too long to count in
         * nanoseconds) holds it until the job's thread is interrupted.
         */
        public Builder jobTime(Duration jobTime) {
            Objects.requireNonNull(jobTime, "jobTime");
            if (jobTime.isNegative()) {
                throw new IllegalArgumentException("jobTime must be >= 0, was " + jobTime);
            }
            this.jobTime = jobTime;
            return this;
        }

        /** The seed of the load balancer's choice of instance. */
        public Builder seed(long seed) {
            this.seed = seed;
            return this;
        }

        /** Whether every dial and outcome goes to the log (the default); the counters are kept either way. */
        public Builder keepLog(boolean keepLog) {
            this.keepLog = keepLog;
            return this;
        }

        /** The fleet. */
        public InMemoryFleet build() {
            return new InMemoryFleet(this);
        }
    }
}
