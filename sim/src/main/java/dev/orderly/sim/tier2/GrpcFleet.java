package dev.orderly.sim.tier2;

import dev.orderly.api.Job;
import dev.orderly.api.OutputStore;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Client;
import dev.orderly.api.Tier2Exception;
import dev.orderly.sim.fleet.Fate;
import dev.orderly.sim.fleet.FleetStats;
import dev.orderly.sim.fleet.TenantDoor;
import dev.orderly.sim.fleet.TenantFleet;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Function;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Real tier2 processes as a {@link TenantFleet}: every tenant dials through one shared {@link Tier2Client} (a
 * {@code GrpcTier2Client}) and reads its outputs where the processes' {@link SimulatedJobWorker} writes them
 * ({@code outputs/<tenant>/}, or the tenant's key prefix in a bucket). The counts are what the tier1 saw, since the
 * processes keep their own. Tenants whose dials wait in the processes' waiting rooms
 * ({@link #waitingTenant}) dial through a second client, one with an admission wait; over gRPC a dial waits at the
 * one instance the client's load balancer picks for it, so {@code waitAt} is not used.
 *
 * <h2>Invariants (guarded by {@code lock})</h2>
 * {@code busy} is the calls admitted and not yet closed, counted once each; {@code peakBusy} its maximum.
 * This class is thread-safe.
 */
public final class GrpcFleet implements TenantFleet {

    private final Tier2Client client;
    private final Tier2Client waiting; // null: no waiting room
    private final Function<String, OutputStore> outputs;
    private final ReentrantLock lock = new ReentrantLock();
    // guarded by lock
    private long dials;
    // guarded by lock
    private long unreachable;
    // guarded by lock
    private long refused;
    // guarded by lock
    private long admitted;
    // guarded by lock
    private int busy;
    // guarded by lock
    private int peakBusy;

    /**
     * @param client reaches the tier2 processes
     * @param outputs the directory the processes write outputs under
     */
    public GrpcFleet(Tier2Client client, Path outputs) {
        this(client, tenant -> SimulatedJobWorker.outputsOf(outputs, tenant));
    }

    /**
     * @param client reaches the tier2 processes
     * @param outputs the store each tenant's request reads, by tenant name (its request id)
     */
    public GrpcFleet(Tier2Client client, Function<String, OutputStore> outputs) {
        this(client, null, outputs);
    }

    /**
     * @param client reaches the tier2 processes
     * @param waiting reaches them too, with dials that ask to wait ({@code GrpcTier2Client.Builder.admissionWait});
     *     null if they have no waiting room
     * @param outputs the store each tenant's request reads, by tenant name (its request id)
     */
    public GrpcFleet(Tier2Client client, Tier2Client waiting, Function<String, OutputStore> outputs) {
        this.client = Objects.requireNonNull(client, "client");
        this.waiting = waiting;
        this.outputs = Objects.requireNonNull(outputs, "outputs");
    }

    @Override
    public TenantDoor tenant(String name, int stages) {
        return door(name, client);
    }

    /**
     * A door whose dials ask to wait; how long is the waiting client's setting (the processes' own limit bounds
     * it), so {@code maxWait} and {@code waitAt} are not used here.
     *
     * @throws IllegalArgumentException if this fleet was built without a waiting client
     */
    @Override
    public TenantDoor waitingTenant(String name, int stages, Duration maxWait, int waitAt) {
        if (waiting == null) {
            throw new IllegalArgumentException("these tier2 processes have no waiting room for " + name
                    + "'s dials to wait in");
        }
        return door(name, waiting);
    }

    private TenantDoor door(String name, Tier2Client through) {
        OutputStore store = outputs.apply(name);
        Tier2Client counting = job -> dial(through, job);
        return new TenantDoor() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public Tier2Client tier2() {
                return counting;
            }

            @Override
            public OutputStore outputs() {
                return store;
            }
        };
    }

    @Override
    public FleetStats stats() {
        lock.lock();
        try {
            return new FleetStats(dials, unreachable, refused, admitted, busy, peakBusy, 0,
                    new long[Fate.Outcome.values().length]);
        } finally {
            lock.unlock();
        }
    }

    /** Dials {@code job} through {@code through}, counting how the dial ended. */
    private Tier2Call dial(Tier2Client through, Job job) throws Tier2Exception, InterruptedException {
        Tier2Call call;
        try {
            call = through.dial(job);
        } catch (Tier2Exception e) {
            count(e.kind());
            throw e;
        }
        count(null);
        AtomicBoolean closed = new AtomicBoolean();
        return new Tier2Call() {
            @Override
            public void await() throws Tier2Exception, InterruptedException {
                call.await();
            }

            @Override
            public void close() {
                call.close();
                if (closed.compareAndSet(false, true)) {
                    lock.lock();
                    try {
                        busy--;
                    } finally {
                        lock.unlock();
                    }
                }
            }
        };
    }

    /** @param kind why the dial failed, or null if it was admitted */
    private void count(Tier2Exception.Kind kind) {
        lock.lock();
        try {
            dials++;
            if (kind == null) {
                admitted++;
                busy++;
                peakBusy = Math.max(peakBusy, busy);
            } else if (kind == Tier2Exception.Kind.REFUSED) {
                refused++;
            } else if (kind == Tier2Exception.Kind.UNREACHABLE) {
                unreachable++;
            }
        } finally {
            lock.unlock();
        }
    }
}
