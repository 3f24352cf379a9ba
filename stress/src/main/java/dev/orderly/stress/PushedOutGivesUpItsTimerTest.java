package dev.orderly.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.orderly.api.JobKey;
import dev.orderly.engine.LaunchQueue;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * A timer never wakes a job outside the window.
 *
 * <p>Window of 1; B (segment 2) is queued and may not dial for an hour. Actor {@code waiter} starts
 * {@code awaitTurn(B)}, which, inside the window, waits for its not-before time in a timed wait. Actor {@code late}
 * reports {@code refused(A)} for A (segment 1), which takes the front place and pushes B out of the window. Whichever
 * comes first, B must end up waiting untimed (its timer given up, or never started), and no wake-up may find it
 * outside the window unannounced. The arbiter waits up to {@link Waiter#PATIENCE} for B's thread to wait untimed on
 * its condition; then it interrupts B so that the thread ends.
 */
@JCStressTest
@Description("A join in front races a timed wait in a window of 1: the job pushed out of the window always ends up "
        + "in an untimed wait, and no wake-up is counted outside the window.")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "B waits untimed outside the window; no wasted wake-up.")
@Outcome(id = "0, 0", expect = FORBIDDEN, desc = "B still in a timed wait (or running) outside the window.")
@Outcome(expect = FORBIDDEN, desc = "Anything else: a wake-up outside the window was counted.")
@State
public class PushedOutGivesUpItsTimerTest {

    private static final JobKey A = Queues.key(1);
    private static final JobKey B = Queues.key(2);

    private final LaunchQueue queue = Queues.windowOf(1, Queues.FOREVER);
    private volatile Waiter waiter;

    public PushedOutGivesUpItsTimerTest() {
        queue.refused(B);
    }

    @Actor
    public void waiter() {
        waiter = Waiter.start(queue, B);
    }

    @Actor
    public void late() {
        queue.refused(A);
    }

    @Arbiter
    public void arbiter(II_Result r) {
        Waiter b = waiter;
        r.r1 = waitsUntimed(b.thread()) ? 1 : 0;
        r.r2 = (int) queue.wakeUpsOutsideWindow();
        b.thread().interrupt();
        b.await();
    }

    private static boolean waitsUntimed(Thread thread) {
        long deadline = System.nanoTime() + Waiter.PATIENCE.toNanos();
        while (System.nanoTime() - deadline < 0) {
            if (thread.getState() == Thread.State.WAITING && LockSupport.getBlocker(thread) instanceof Condition) {
                return true;
            }
            Thread.onSpinWait();
        }
        return false;
    }
}
