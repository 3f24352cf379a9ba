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
 * {@code leave} racing {@code refused} on the same key.
 *
 * <p>Window of 1; A is queued and dialing. Actor {@code cancel} calls {@code leave(A)} (the request is being torn
 * down) while actor {@code refusal} reports {@code refused(A)}. Either order is legal and ends in a state the rules
 * allow: refused-then-leave leaves nothing behind; leave-then-refused re-queues A (a refusal of a job that is not
 * queued takes a place) without a dial slot. Never is a dial slot kept by a job that no longer dials. The arbiter
 * then checks that the slot is really free: the next turn (of A if it is still queued, else of a new job B) comes
 * at once.
 */
@JCStressTest
@Description("leave(A) races refused(A) on a dialing job: the queue ends empty, or with A re-queued and not dialing; "
        + "the dial slot is never leaked.")
@Outcome(id = "0, 0, 1", expect = ACCEPTABLE, desc = "refused then leave: A gone, no slot held; a new job gets its turn.")
@Outcome(id = "1, 0, 1", expect = ACCEPTABLE, desc = "leave then refused: A re-queued without a slot; its next turn "
        + "comes at once.")
@Outcome(id = {"1, 1, 1", "0, 1, 1"}, expect = FORBIDDEN, desc = "A dial slot is still held after A reported back.")
@Outcome(expect = FORBIDDEN, desc = "Anything else (a negative dialing count, a lost entry, -1 never woke, -3 threw).")
@State
public class LeaveRacingRefusedTest {

    private static final JobKey A = Queues.key(1);
    private static final JobKey B = Queues.key(2);

    private final LaunchQueue queue = Queues.windowOf(1);

    public LeaveRacingRefusedTest() {
        Queues.queuedAndDialing(queue, A);
    }

    @Actor
    public void cancel() {
        queue.leave(A);
    }

    @Actor
    public void refusal() {
        queue.refused(A);
    }

    @Arbiter
    public void arbiter(III_Result r) {
        int size = queue.size();
        int dialing = queue.stats().dialing();
        r.r1 = size;
        r.r2 = dialing;
        if (size == 0) {
            // The slot must be free: B joins the empty queue and gets its turn at once.
            queue.refused(B);
            r.r3 = Waiter.start(queue, B).await();
        } else {
            // A kept its place without a slot: its next turn must come at once.
            r.r3 = Waiter.start(queue, A).await();
        }
    }
}
