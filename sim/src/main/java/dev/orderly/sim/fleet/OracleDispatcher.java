package dev.orderly.sim.fleet;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Client;
import dev.orderly.api.Tier2Exception;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The oracle: a perfect central dispatcher in front of a {@link SimulatedFleet}, the limit no client-side launch
 * strategy can beat on the same fleet. A dial never fails for want of room; it waits, silently, until the dispatcher
 * hands it a slot. Every free slot goes at once to the lowest waiting unit (launch order) of the tenant whose turn it
 * is, tenants taking turns round robin. So there are no refusals, no refused delay, no unreachable dials (a central
 * dispatcher knows which instances are up), and no slot stays idle while any job waits. Run times and the faults of
 * admitted jobs are the fleet's own, drawn from the same seed as for every other strategy.
 *
 * <h2>Invariants (all guarded by {@code lock})</h2>
 * <ul>
 *   <li>{@code busy} is the number of slots granted and not yet given back; {@code inUse[i]} the same per instance,
 *       never above the instance's slots. A grant takes a slot in the fleet in the same critical section, so the
 *       fleet never refuses the dispatcher.
 *   <li>After every change ({@link #dial}, a slot given back) {@link #dispatch()} runs, so a slot is never free while a
 *       job waits: either {@code busy == capacity} or nothing is waiting.
 *   <li>A waiter is in its tenant's map until it is granted (then {@code call} is set and it is signalled) or its
 *       thread is interrupted (then it removes itself, and gives its slot back if the grant raced the interrupt).
 *   <li>The fleet counts every dial once: a granted one when the fleet admits it, one withdrawn by an interrupt as a
 *       cancelled dial, so the fleet's dials equal the engines'.
 *   <li>{@code turn} is the tenant served first at the next grant; it moves past each tenant served.
 * </ul>
 * The fleet's own lock is taken inside this one, never the other way round. This class is thread-safe.
 */
public final class OracleDispatcher {

    private final SimulatedFleet fleet;
    private final ReentrantLock lock = new ReentrantLock();
    // guarded by lock
    private final List<TreeMap<JobKey, Waiter>> waiting = new ArrayList<>();
    // guarded by lock
    private final List<SimulatedTier2> tenants = new ArrayList<>();
    // guarded by lock
    private final int[] inUse;
    // guarded by lock
    private int busy;
    // guarded by lock
    private int turn;

    /** A dispatcher for every slot of {@code fleet}; nothing else may dial that fleet. */
    public OracleDispatcher(SimulatedFleet fleet) {
        this.fleet = fleet;
        this.inUse = new int[fleet.config().instances()];
    }

    /** A job waiting for a slot. Its fields are guarded by the dispatcher's lock. */
    private static final class Waiter {
        final Condition granted;
        SimulatedCall call;

        Waiter(Condition granted) {
            this.granted = granted;
        }
    }

    /** The client of one tenant: its dials wait for the dispatcher instead of going to a random instance. */
    public Tier2Client tenant(SimulatedTier2 tier2) {
        lock.lock();
        try {
            int index = tenants.size();
            tenants.add(tier2);
            waiting.add(new TreeMap<>());
            return job -> dial(index, job);
        } finally {
            lock.unlock();
        }
    }

    /** Jobs waiting for a slot now, over every tenant. */
    public int waiting() {
        lock.lock();
        try {
            return waiting.stream().mapToInt(TreeMap::size).sum();
        } finally {
            lock.unlock();
        }
    }

    private Tier2Call dial(int tenant, Job job) throws InterruptedException {
        lock.lock();
        try {
            Waiter w = new Waiter(lock.newCondition());
            if (waiting.get(tenant).putIfAbsent(job.key(), w) != null) {
                throw new IllegalStateException(job.key() + " of " + tenants.get(tenant).name()
                        + " is already waiting: one live job per unit");
            }
            dispatch();
            try {
                while (w.call == null) {
                    w.granted.await();
                }
            } catch (InterruptedException e) {
                if (w.call == null) {
                    // The dial reached the dispatcher (the engine counted it) but its job was cancelled: count it.
                    waiting.get(tenant).remove(job.key());
                    fleet.countCancelledDial();
                } else {
                    w.call.close();
                    giveBack(w.call.instance());
                }
                throw e;
            }
            return new Granted(w.call);
        } finally {
            lock.unlock();
        }
    }

    /** Hands free slots to waiting jobs, one tenant's lowest unit at a time, round robin. Holds the lock. */
    private void dispatch() {
        int capacity = fleet.config().capacity();
        int n = waiting.size();
        while (busy < capacity) {
            int served = -1;
            for (int i = 0; i < n && served < 0; i++) {
                int t = (turn + i) % n;
                if (!waiting.get(t).isEmpty()) {
                    served = t;
                }
            }
            if (served < 0) {
                return;
            }
            var lowest = waiting.get(served).pollFirstEntry();
            int instance = leastBusyInstance();
            SimulatedCall call = tenants.get(served).admitOn(instance, lowest.getKey());
            if (call == null) {
                throw new IllegalStateException("instance " + instance + " refused the dispatcher: something else"
                        + " dialed its fleet");
            }
            inUse[instance]++;
            busy++;
            lowest.getValue().call = call;
            lowest.getValue().granted.signal();
            turn = (served + 1) % n;
        }
    }

    private int leastBusyInstance() {
        int best = 0;
        for (int i = 1; i < inUse.length; i++) {
            if (inUse[i] < inUse[best]) {
                best = i;
            }
        }
        return best;
    }

    private void giveBack(int instance) {
        lock.lock();
        try {
            inUse[instance]--;
            busy--;
            dispatch();
        } finally {
            lock.unlock();
        }
    }

    /** A granted job: gives its slot back to the dispatcher once, when it ends or is closed. */
    private final class Granted implements Tier2Call {
        private final SimulatedCall call;
        private final AtomicBoolean givenBack = new AtomicBoolean();

        Granted(SimulatedCall call) {
            this.call = call;
        }

        @Override
        public void await() throws Tier2Exception, InterruptedException {
            try {
                call.await();
            } finally {
                close();
            }
        }

        @Override
        public void close() {
            call.close();
            if (givenBack.compareAndSet(false, true)) {
                giveBack(call.instance());
            }
        }
    }
}
