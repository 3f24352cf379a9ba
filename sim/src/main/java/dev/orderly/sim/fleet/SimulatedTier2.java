package dev.orderly.sim.fleet;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.OutputStore;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Client;
import dev.orderly.api.Tier2Exception;
import dev.orderly.engine.InMemoryOutputStore;
import java.time.Duration;

/**
 * One tenant's door into a {@link SimulatedFleet}: a real {@link Tier2Client} whose last-stage jobs write into this
 * tenant's own {@link #outputs() store}. The load balancer picks an instance; a tenant that does not wait is taken
 * or refused at once, one made by {@link SimulatedFleet#waitingTenant} waits in the waiting rooms of that instance
 * (and of the next ones, when it waits at several) up to its admission wait. This class is thread-safe.
 */
public final class SimulatedTier2 implements Tier2Client, TenantDoor {

    private final SimulatedFleet fleet;
    private final String name;
    private final int lastStage;
    private final InMemoryOutputStore outputs = new InMemoryOutputStore();
    private final Duration maxWait;
    private final int waitAt;

    /** @param maxWait how long a dial waits in the rooms (simulated time); zero: it does not wait */
    SimulatedTier2(SimulatedFleet fleet, String name, int stages, Duration maxWait, int waitAt) {
        if (stages < 1) {
            throw new IllegalArgumentException("stages must be >= 1, was " + stages);
        }
        this.fleet = fleet;
        this.name = name;
        this.lastStage = stages - 1;
        this.maxWait = maxWait;
        this.waitAt = Math.min(waitAt, fleet.config().instances());
    }

    /** The tenant's name. */
    @Override
    public String name() {
        return name;
    }

    @Override
    public Tier2Client tier2() {
        return this;
    }

    /** Where this tenant's last-stage jobs leave their outputs. */
    @Override
    public OutputStore outputs() {
        return outputs;
    }

    /** The output a job of this tenant writes for {@code segment}; a client checks what it reads against it. */
    @Override
    public byte[] expectedOutput(long segment) {
        return SimulatedWork.output(name, segment);
    }

    @Override
    public SimulatedCall dial(Job job) throws Tier2Exception, InterruptedException {
        if (Thread.interrupted()) {
            // The dial reached the fleet (the engine counted it) but its job was cancelled: count it, take no slot.
            fleet.countCancelledDial();
            throw new InterruptedException("dial of " + job.key() + " cancelled");
        }
        JobKey key = job.key();
        FateDraws.DialDraw draw = fleet.draws().dial(name, key, job.attempt());
        if (draw.unreachable()) {
            fleet.countUnreachable();
            throw Tier2Exception.unreachable("no healthy upstream (simulated) for " + key);
        }
        SimulatedCall call = maxWait.isPositive() ? waitFor(draw.instance(), job) : admitOn(draw.instance(), key);
        if (call == null) {
            throw Tier2Exception.refused(maxWait.isPositive()
                    ? "no slot freed for " + key + " within its admission wait of " + maxWait.toMillis()
                            + " ms (simulated), or a better-ranked dial took its seat"
                    : "instance " + draw.instance() + " is at its limit of " + fleet.config().slotsPerInstance()
                            + " concurrent jobs");
        }
        return call;
    }

    /**
     * Takes a slot on {@code instance} for {@code key} if it has one, with the fate the seed gives that admission;
     * null if the instance is full. The load balancer's dial and the oracle's dispatcher both admit through here.
     */
    SimulatedCall admitOn(int instance, JobKey key) {
        return called(fleet.tryAdmit(instance, name, key), key);
    }

    /** The call of an admitted job, with the fate the seed gives that admission; null if it was refused. */
    private SimulatedCall called(SimulatedFleet.Admitted a, JobKey key) {
        if (a.refused()) {
            return null;
        }
        Fate fate = fleet.draws().admission(name, key, a.admission(), key.stage() == lastStage);
        return new SimulatedCall(this, a, key, fate);
    }

    /** Waits for a slot at {@code waitAt} instances from {@code first} on; null if refused or the wait ended. */
    private SimulatedCall waitFor(int first, Job job) throws InterruptedException {
        int[] instances = new int[waitAt];
        for (int i = 0; i < waitAt; i++) {
            instances[i] = (first + i) % fleet.config().instances();
        }
        JobKey key = job.key();
        return called(fleet.admitOrWait(instances, name, key, job.rank(), fleet.config().timeScale().toWall(maxWait)),
                key);
    }

    SimulatedFleet fleet() {
        return fleet;
    }

    void writeOutput(long segment) {
        outputs.write(segment, expectedOutput(segment));
    }

    boolean isLastStage(JobKey key) {
        return key.stage() == lastStage;
    }
}
