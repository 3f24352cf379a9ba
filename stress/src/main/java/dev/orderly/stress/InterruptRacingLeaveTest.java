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
 * Cancellation racing the wake-up that would admit the waiter.
 *
 * <p>Window of 1; A is queued and dialing, and B's thread is parked in {@code awaitTurn(B)} just outside the window
 * (the set-up waits until it is parked on its condition). Actor {@code head} calls {@code leave(A)}, which moves the
 * window to B and wakes it; actor {@code cancel} interrupts B's thread. B must either pass (it holds the dial slot and
 * is queued; its interrupt flag may be set, for its caller to see) or throw {@link InterruptedException} and be gone
 * from the queue, with no slot held — never both, never neither.
 */
@JCStressTest
@Description("interrupt of a parked waiter races the leave that admits it: either it passed (queued, dialing) or it "
        + "threw InterruptedException and is not queued; never an entry left behind, never a hang.")
@Outcome(id = "1, 1, 1", expect = ACCEPTABLE, desc = "B passed before the interrupt took effect; it holds the slot.")
@Outcome(id = "-2, 0, 0", expect = ACCEPTABLE, desc = "B threw InterruptedException and left the queue.")
@Outcome(id = {"-2, 1, 0", "-2, 1, 1"}, expect = FORBIDDEN, desc = "B threw but its entry is still queued.")
@Outcome(id = "1, 0, 0", expect = FORBIDDEN, desc = "B returned without a dial slot although nobody made it leave.")
@Outcome(expect = FORBIDDEN, desc = "Anything else: -1 never woke (neither passed nor threw), -3 threw otherwise.")
@State
public class InterruptRacingLeaveTest {

    private static final JobKey A = Queues.key(1);
    private static final JobKey B = Queues.key(2);

    private final LaunchQueue queue = Queues.windowOf(1);
    private final Waiter waiter;

    public InterruptRacingLeaveTest() {
        Queues.queuedAndDialing(queue, A);
        waiter = Waiter.start(queue, B);
        if (!waiter.awaitParked()) {
            throw new IllegalStateException("set-up: " + B + " did not park behind " + A + ": " + queue.snapshot());
        }
    }

    @Actor
    public void head() {
        queue.leave(A);
    }

    @Actor
    public void cancel() {
        waiter.thread().interrupt();
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r1 = waiter.await();
        r.r2 = queue.size();
        r.r3 = queue.stats().dialing();
    }
}
