package dev.orderly.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.orderly.api.JobKey;
import dev.orderly.engine.LaunchQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Window bound: in a window of 1, two queued jobs never both hold a dial slot.
 *
 * <p>Job B (segment 2) is queued and at the head. Actor {@code late} makes job A (segment 1) join in front of it —
 * a late low job, as the re-run of a missing output is — and waits for its turn; actor {@code head} waits for B's
 * turn. Whichever passes first may have sorted behind the other, but it holds the only dial slot until it leaves, so
 * the other must wait for that leave. Each job, once through {@code awaitTurn}, records whether it was first (1), or
 * second after the other had left (2), or second while the other still held its slot (3, forbidden), then leaves.
 */
@JCStressTest
@Description("Window of 1: a late low job joining in front of a queued head and the head itself race through "
        + "awaitTurn; the second to pass must wait until the first has left (at most windowSize() queued jobs dial).")
@Outcome(id = "1, 2", expect = ACCEPTABLE, desc = "A (joined in front) passed first; B passed after A left.")
@Outcome(id = "2, 1", expect = ACCEPTABLE, desc = "B passed before A joined; A waited for B's dial to resolve.")
@Outcome(id = {"1, 3", "3, 1"}, expect = FORBIDDEN, desc = "Both held a dial slot at once in a window of 1.")
@Outcome(expect = FORBIDDEN, desc = "Anything else: -1 never woke (lost wake-up), -2 interrupted, -3 threw.")
@State
public class WindowBoundTest {

    private static final JobKey A = Queues.key(1);
    private static final JobKey B = Queues.key(2);

    private final LaunchQueue queue = Queues.windowOf(1);
    private final AtomicInteger passed = new AtomicInteger();
    private final AtomicInteger left = new AtomicInteger();

    public WindowBoundTest() {
        queue.refused(B);
    }

    @Actor
    public void late(II_Result r) {
        queue.refused(A);
        r.r1 = passAndLeave(A);
    }

    @Actor
    public void head(II_Result r) {
        r.r2 = passAndLeave(B);
    }

    private int passAndLeave(JobKey key) {
        return Waiter.start(queue, key, () -> {
            int order = passed.incrementAndGet();
            int othersLeft = left.get();
            left.incrementAndGet();
            queue.leave(key);
            return order == 1 ? 1 : othersLeft == 1 ? 2 : 3;
        }).await();
    }
}
