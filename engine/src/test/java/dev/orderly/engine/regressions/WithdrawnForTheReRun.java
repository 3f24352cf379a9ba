package dev.orderly.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.OutputStore;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.Tier2Call;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.testing.ScriptedTier2;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The scene of the tests of a unit whose job is withdrawn for the client's re-run while it sits out a delay. Plan
 * 4 x 1 on 3 workers: segments 1 and 2 are held on their tier2 until the client has segment 0, whose first output goes
 * missing; the walker's first look at segment 0 waits until {@link #UNIT}'s job sits out its delay, so that segment
 * 0's re-run finds every worker taken and {@link #UNIT}'s job, the only one not on a tier2, is withdrawn.
 */
final class WithdrawnForTheReRun {

    static final RequestPlan PLAN = new RequestPlan(0, 4, 1, 3);
    static final JobKey UNIT = new JobKey(3, 0);

    private final InMemoryOutputStore written = new InMemoryOutputStore();
    private final CountDownLatch clientHasSegment0 = new CountDownLatch(1);

    /** The call of a job of a unit other than {@link #UNIT}: see the class's comment. */
    Tier2Call call(Job job) {
        long segment = job.key().segment();
        return new Tier2Call() {
            @Override
            public void await() throws InterruptedException {
                if (segment == 1 || segment == 2) {
                    clientHasSegment0.await();
                }
                // Segment 0's first output goes missing: the walker re-runs it.
                if (segment != 0 || job.attempt() > 1) {
                    written.write(segment, ScriptedTier2.outputOf(segment));
                }
            }
        };
    }

    /** To tell, from the client, that it has segment {@code segment}. */
    void delivered(long segment) {
        if (segment == 0) {
            clientHasSegment0.countDown();
        }
    }

    /**
     * The store the walker reads, whose first read of segment 0 waits (at most 10 s) for {@code unitWaits}: the
     * count-down of the listener event after which {@link #UNIT}'s job sits out its delay ({@code what}, to say so).
     */
    OutputStore store(CountDownLatch unitWaits, String what) {
        AtomicBoolean firstRead = new AtomicBoolean(true);
        return new OutputStore() {
            @Override
            public Optional<byte[]> read(long segment) throws IOException {
                if (segment == 0 && firstRead.compareAndSet(true, false)) {
                    try {
                        assertTrue(unitWaits.await(10, TimeUnit.SECONDS), "segment 3 was never " + what);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new InterruptedIOException();
                    }
                }
                return written.read(segment);
            }
        };
    }
}
