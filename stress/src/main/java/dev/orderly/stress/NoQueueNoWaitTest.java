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
 * queue or U queued behind it, nothing is queued ahead of L: it returns at once, does not join and holds no slot.
 */
@JCStressTest
@Description("awaitTurn of a job with nothing queued ahead races a refusal that fills the queue behind it: it "
        + "returns at once, never joins, takes no dial slot.")
@Outcome(id = "1, 0, 1", expect = ACCEPTABLE, desc = "L passed without joining; only U is queued; nobody dials.")
@Outcome(id = "1, 1, 2", expect = FORBIDDEN, desc = "L joined (or took a slot) although nothing was ahead of it.")
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
        r.r2 = queue.dialingCount();
        r.r3 = queue.size();
    }
}
