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
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * No queue, no wait, while the queue fills behind.
 *
 * <p>The queue is empty. Actor {@code refusal} reports {@code refused(U)} for U (segment 2), which takes a place;
 * actor {@code front} calls {@code awaitTurn(L)} for L (segment 1), which is not queued. Whether it sees an empty
 * queue or U queued behind it, nothing is queued ahead of L and the dial slot is free: it returns at once and does
 * not join. It holds the dial slot (every job that dials counts, queued or not) until it reports back.
 */
@JCStressTest
@Description("awaitTurn of a job with nothing queued ahead races a refusal that fills the queue behind it: it "
        + "returns at once, never joins, and holds the one dial slot.")
@Outcome(id = "1, 1, 1", expect = ACCEPTABLE, desc = "L passed without joining; only U is queued; L holds the slot.")
@Outcome(id = "1, 1, 2", expect = FORBIDDEN, desc = "L joined although nothing was ahead of it.")
@Outcome(id = "1, 0, 1", expect = FORBIDDEN, desc = "L dials but holds no dial slot: it is not counted.")
@Outcome(expect = FORBIDDEN, desc = "Anything else: -1 L waited (no-queue path not taken), -3 threw, wrong state.")
@State
public class NoQueueNoWaitTest {

    private static final JobKey L = Queues.key(1);
    private static final JobKey U = Queues.key(2);

    private final LaunchQueue queue = Queues.windowOf(1);

    @Actor
    public void front(III_Result r) {
        r.r1 = Waiter.start(queue, L).await();
    }

    @Actor
    public void refusal() {
        queue.refused(U);
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r2 = queue.stats().dialing();
        r.r3 = queue.size();
    }
}
