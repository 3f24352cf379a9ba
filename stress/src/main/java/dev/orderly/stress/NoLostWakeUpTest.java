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
 * No lost wake-up: the head leaves while the job just outside the window goes to wait.
 *
 * <p>Window of 1; A (segment 1) is queued and dialing, B (segment 2) is queued behind it. Actor {@code head} calls
 * {@code leave(A)} (a tier2 took A) while actor {@code next} calls {@code awaitTurn(B)}: B may see A still there and
 * park, or see it gone and pass at once. Either way B must get its turn. The arbiter then records B's outcome, the
 * queue's size and its dialing count.
 */
@JCStressTest
@Description("Window of 1: leave(head) races awaitTurn of the job just outside the window; the waiter always gets "
        + "its turn (no lost wake-up) and ends up the only queued, dialing job.")
@Outcome(id = "1, 1, 1", expect = ACCEPTABLE, desc = "B got its turn; it is queued and holds the only dial slot.")
@Outcome(id = "-1, 1, 0", expect = FORBIDDEN, desc = "B never woke although the window moved to it: lost wake-up.")
@Outcome(expect = FORBIDDEN, desc = "Anything else: wrong size or dialing count, -2 interrupted, -3 threw.")
@State
public class NoLostWakeUpTest {

    private static final JobKey A = Queues.key(1);
    private static final JobKey B = Queues.key(2);

    private final LaunchQueue queue = Queues.windowOf(1);

    public NoLostWakeUpTest() {
        Queues.queuedAndDialing(queue, A);
        queue.refused(B);
    }

    @Actor
    public void head() {
        queue.leave(A);
    }

    @Actor
    public void next(III_Result r) {
        r.r1 = Waiter.start(queue, B).await();
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r2 = queue.size();
        r.r3 = queue.stats().dialing();
    }
}
