package dev.orderly.sim.fleet;

import dev.orderly.api.JobKey;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Exception;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A job a simulated instance has taken. {@link #await()} lets the job's simulated run time pass and then ends it as
 * its {@link Fate} says; the slot is given back when the job ends or when the call is closed, whichever comes first
 * (a cancelled job frees its slot at once), and never twice.
 *
 * <p>{@code await} is called by one thread; {@code close} may race with it and with another close (the job's own and
 * the engine's). So the release is made under a lock of its own: whoever comes second returns only once the slot is
 * free in the fleet, so that a dispatcher it then gives the slot back to never finds the instance still full.
 * {@code releasing} guards {@code released}; the fleet's lock is taken inside it, never the other way round.
 */
public final class SimulatedCall implements Tier2Call {

    private final SimulatedTier2 tenant;
    private final SimulatedFleet.Admitted admitted;
    private final int instance;
    private final JobKey key;
    private final Fate fate;
    private final ReentrantLock releasing = new ReentrantLock();
    // guarded by releasing
    private boolean released;

    SimulatedCall(SimulatedTier2 tenant, SimulatedFleet.Admitted admitted, JobKey key, Fate fate) {
        this.tenant = tenant;
        this.admitted = admitted;
        this.instance = admitted.instance();
        this.key = key;
        this.fate = fate;
    }

    /** The instance that took the job. */
    public int instance() {
        return instance;
    }

    /** What becomes of this job. */
    public Fate fate() {
        return fate;
    }

    @Override
    public void await() throws Tier2Exception, InterruptedException {
        tenant.fleet().config().timeScale().sleep(fate.runFor());
        switch (fate.outcome()) {
            case SUCCEEDED -> {
                if (tenant.isLastStage(key)) {
                    tenant.writeOutput(key.segment());
                }
                release(fate.outcome());
            }
            case OUTPUT_MISSING -> release(fate.outcome());
            case EXECUTION_TIMEOUT -> {
                release(fate.outcome());
                throw Tier2Exception.executionTimeout(key + " ran past its deadline (simulated) on instance "
                        + instance);
            }
            case RETRYABLE -> {
                release(fate.outcome());
                throw Tier2Exception.retryable(key + " failed on instance " + instance + " (simulated stream reset)",
                        null);
            }
            case FATAL -> {
                release(fate.outcome());
                throw Tier2Exception.fatal(key + " failed on instance " + instance
                        + " (simulated fatal error: bad module)", null);
            }
        }
    }

    /** Gives the slot back if the job has not ended yet: the request was cancelled while it ran. */
    @Override
    public void close() {
        release(null);
    }

    /** @param endedAs how the job ended, or null when it was cancelled (closed before it ended) */
    private void release(Fate.Outcome endedAs) {
        releasing.lock();
        try {
            if (!released) {
                released = true;
                tenant.fleet().release(instance, admitted.slot(), endedAs);
            }
        } finally {
            releasing.unlock();
        }
    }
}
