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
 * {@code leave} is idempotent under a race, for a job that took its dial slot by the no-queue path (nothing queued,
 * no lock): the engine's common case. A and B both dial with nothing queued; two actors call {@code leave(A)} at once.
 * A's slot must be given back once: B still holds its own (dialing 1; a double release would make it 0, and once
 * anything is queued one job more than the window could dial).
 */
@JCStressTest
@Description("Two concurrent leave(A) on a job that dials by the no-queue path: no exception, A's slot given back "
        + "once, B keeps its own (size 0, dialing 1).")
@Outcome(id = "0, 0, 0, 1", expect = ACCEPTABLE, desc = "Both calls returned; A's slot given back once; B dialing.")
@Outcome(id = "0, 0, 0, 0", expect = FORBIDDEN, desc = "A's dial slot was given back twice.")
@Outcome(expect = FORBIDDEN, desc = "Anything else: a call threw (1), or a wrong size or dialing count.")
@State
public class LeaveTwiceNoQueueTest {

    private static final JobKey A = Queues.key(1);
    private static final JobKey B = Queues.key(2);

    private final LaunchQueue queue = Queues.windowOf(2);

    public LeaveTwiceNoQueueTest() {
        for (JobKey key : new JobKey[] {A, B}) {
            if (Waiter.start(queue, key).await() != Waiter.PASSED) {
                throw new IllegalStateException("set-up: " + key + " did not pass with nothing queued");
            }
        }
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
