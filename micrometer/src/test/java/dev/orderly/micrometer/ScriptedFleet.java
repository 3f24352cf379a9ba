package dev.orderly.micrometer;

import dev.orderly.api.Job;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Client;
import dev.orderly.api.Tier2Exception;
import dev.orderly.engine.InMemoryOutputStore;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A fake fleet: a {@link Script} says what each dial does. A successful job writes its segment's output (the tests
 * run one-stage plans, so every job is a last-stage job).
 */
final class ScriptedFleet implements Tier2Client {

    /** What one dial does. */
    enum Step {
        /** Admitted; the run ends well and writes the output. */
        OK,
        /** Admitted; the run ends well but writes no output, so the segment is re-run. */
        OK_WITHOUT_OUTPUT,
        /** The dial is refused. */
        REFUSED,
        /** The fleet is unreachable. */
        UNREACHABLE,
        /** The dial itself times out. */
        DIAL_TIMES_OUT,
        /** Admitted; the run times out. */
        RUN_TIMES_OUT,
        /** Admitted; the run fails with a retryable error. */
        RUN_FAILS,
        /** The dial fails fatally. */
        FATAL,
        /** The dial blocks until its thread is interrupted. */
        DIAL_BLOCKS
    }

    /** Decides what a dial does; may look at the meters, as it runs on the dialing thread. */
    @FunctionalInterface
    interface Script {
        Step step(Job job);
    }

    private final InMemoryOutputStore store;
    private final Script script;
    private final AtomicInteger dials = new AtomicInteger();
    private final AtomicInteger blocked = new AtomicInteger();
    private final CountDownLatch never = new CountDownLatch(1);

    ScriptedFleet(InMemoryOutputStore store, Script script) {
        this.store = store;
        this.script = script;
    }

    @Override
    public Tier2Call dial(Job job) throws Tier2Exception, InterruptedException {
        dials.incrementAndGet();
        long segment = job.key().segment();
        return switch (script.step(job)) {
            case OK -> () -> store.write(segment, ("output " + segment).getBytes(StandardCharsets.UTF_8));
            case OK_WITHOUT_OUTPUT -> () -> { };
            case REFUSED -> throw Tier2Exception.refused("at capacity");
            case UNREACHABLE -> throw Tier2Exception.unreachable("no healthy upstream");
            case DIAL_TIMES_OUT -> throw Tier2Exception.executionTimeout("dial deadline");
            case RUN_TIMES_OUT -> () -> {
                throw Tier2Exception.executionTimeout("run deadline");
            };
            case RUN_FAILS -> () -> {
                throw Tier2Exception.retryable("stream reset", null);
            };
            case FATAL -> throw Tier2Exception.fatal("bad request", null);
            case DIAL_BLOCKS -> {
                blocked.incrementAndGet();
                never.await();
                throw new AssertionError("unreachable");
            }
        };
    }

    /** Dials so far. */
    int dials() {
        return dials.get();
    }

    /** Dials that have blocked so far (each until its thread was interrupted). */
    int blocked() {
        return blocked.get();
    }
}
