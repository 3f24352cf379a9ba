package dev.orderly.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.orderly.api.JobKey;
import dev.orderly.engine.LaunchQueue;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * {@code leave} is idempotent under a race.
 *
 * <p>Window of 2; A and B are both queued and dialing. Two actors call {@code leave(A)} at once — the job's own thread
 * when a tier2 took it, and the request's clean-up. A must be removed exactly once: its dial slot is released once,
 * so B still holds its own, the size is 1, the dialing count 1 (a double release would make it 0, and a job could then
 * dial beyond the window), and neither call throws.
 */
@JCStressTest
@Description("Two concurrent leave(A) on a dialing job: no exception, A removed once, B keeps its dial slot "
        + "(size 1, dialing 1; never 0 or negative).")
@Outcome(id = "0, 0, 1, 1", expect = ACCEPTABLE, desc = "Both calls returned; A gone once; B still dialing.")
@Outcome(id = "0, 0, 1, 0", expect = FORBIDDEN, desc = "A's dial slot was released twice.")
@Outcome(expect = FORBIDDEN, desc = "Anything else: a call threw (1), or a wrong size or dialing count.")
@State
public class LeaveTwiceTest {

    private static final JobKey A = Queues.key(1);
    private static final JobKey B = Queues.key(2);

    private final LaunchQueue queue = Queues.windowOf(2);

    public LeaveTwiceTest() {
        Queues.queuedAndDialing(queue, A);
        Queues.queuedAndDialing(queue, B);
    }

    @Actor
    public void job(IIII_Result r) {
        r.r1 = leave();
    }

    @Actor
    public void cleanUp(IIII_Result r) {
        r.r2 = leave();
    }

    private int leave() {
        try {
            queue.leave(A);
            return 0;
        } catch (RuntimeException e) {
            return 1;
        }
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        r.r3 = queue.size();
        r.r4 = queue.stats().dialing();
    }
}
