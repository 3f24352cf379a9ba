package dev.orderly.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.orderly.api.JobKey;
import dev.orderly.engine.LaunchQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Window bound: in a window of 1, while anything is queued, two jobs never both hold a dial slot — also when one of
 * them takes the no-queue path.
 *
 * <p>Job B (segment 2) is queued and at the head. Actor {@code late} calls {@code awaitTurn(A)} for job A (segment 1),
 * which is not queued, exactly as the engine starts a late low job (the re-run of a missing output): A sorts ahead of
 * everything queued, so it dials at once if the dial slot is free and otherwise takes the front place. Actor
 * {@code head} waits for B's turn. Whichever passes first holds the only dial slot until it leaves, so the other must
 * wait for that leave.
 *
 * <p>The first to pass keeps its slot until the other has either passed too (the bug this test is after) or is
 * parked waiting (bounded by {@link Waiter#PATIENCE}, in case the other has not even started); only then does it leave.
 * Each job, once through {@code awaitTurn}, records whether it was first (1), or second after the other had left (2),
 * or second while the other still held its slot (3, forbidden).
 */
@JCStressTest
@Description("Window of 1: a late low job (not queued, sorting ahead of the queued head) and the head itself race "
        + "through awaitTurn; the second to pass must wait until the first has left (at most windowSize() jobs dial).")
@Outcome(id = "1, 2", expect = ACCEPTABLE, desc = "A (no-queue path) passed first; B passed after A left.")
@Outcome(id = "2, 1", expect = ACCEPTABLE, desc = "B passed first; A took the front place and waited for B's dial to resolve.")
@Outcome(id = {"1, 3", "3, 1"}, expect = FORBIDDEN, desc = "Both held a dial slot at once in a window of 1.")
@Outcome(expect = FORBIDDEN, desc = "Anything else: -1 never woke (lost wake-up), -2 interrupted, -3 threw.")
@State
public class WindowBoundTest {

    private static final JobKey A = Queues.key(1);
    private static final JobKey B = Queues.key(2);

    private final LaunchQueue queue = Queues.windowOf(1);
    private final AtomicInteger passed = new AtomicInteger();
    private final AtomicInteger left = new AtomicInteger();
    private volatile Waiter lateJob;
    private volatile Waiter headJob;

    public WindowBoundTest() {
        queue.refused(B);
    }

    @Actor
    public void late(II_Result r) {
        Waiter waiter = Waiter.start(queue, A, () -> passHoldAndLeave(A, () -> headJob));
        lateJob = waiter;
        r.r1 = waiter.await();
    }

    @Actor
    public void head(II_Result r) {
        Waiter waiter = Waiter.start(queue, B, () -> passHoldAndLeave(B, () -> lateJob));
        headJob = waiter;
        r.r2 = waiter.await();
    }

    private int passHoldAndLeave(JobKey key, Supplier<Waiter> other) {
        int order = passed.incrementAndGet();
        if (order == 1) {
            holdUntilTheOtherPassedOrParked(other);
        }
        int othersLeft = left.get();
        left.incrementAndGet();
        queue.leave(key);
        return order == 1 ? 1 : othersLeft == 1 ? 2 : 3;
    }

    private void holdUntilTheOtherPassedOrParked(Supplier<Waiter> other) {
        long deadline = System.nanoTime() + Waiter.PATIENCE.toNanos();
        while (System.nanoTime() - deadline < 0) {
            Waiter waiter = other.get();
            if (passed.get() > 1 || (waiter != null && (waiter.isParked() || waiter.hasEnded()))) {
                return;
            }
            Thread.onSpinWait();
        }
    }
}
