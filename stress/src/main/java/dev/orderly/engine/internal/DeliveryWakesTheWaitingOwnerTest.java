package dev.orderly.engine.internal;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJ_Result;

/**
 * The owner waiting on a full look-ahead window is woken by the delivery that leaves a quarter of it behind.
 *
 * <p>32 segments, one stage, 16 workers, a look-ahead of 16: segments 0 to 15 were handed out and their jobs
 * succeeded, so the window is full, every worker free, and nothing may launch until the client reads segment 0.
 * Actor {@code owner} asks for the next unit (it may find nothing and wait); actor {@code walker} reports segments 0
 * to 3 delivered, a quarter of the window, the fourth of which wakes an owner that waits. The owner must get segment
 * 16 whichever comes first: a walker that returned without the lock while the owner was about to wait would leave it
 * waiting for good. An owner that looks before the walker is done finds the window moved by the deliveries made so
 * far (at least one, or it would wait) and takes segment 16 without waiting.
 *
 * <p>In the engine's package because the scheduler is package-private: the stress suites run on the class path,
 * where the engine's module does not hide it.
 */
@JCStressTest
@Description("The owner's wait on a full window races the deliveries that move it: the owner always gets the next "
        + "segment's unit (no lost wake-up).")
@Outcome(id = "16, [1-4]", expect = ACCEPTABLE, desc = "The owner got segment 16; the board reads 1 to 4 segments on.")
@Outcome(id = "-1, .*", expect = FORBIDDEN, desc = "The owner never woke although the window moved (5 s bound).")
@Outcome(expect = FORBIDDEN, desc = "Anything else: -3 threw, a wrong segment or reading.")
@State
public class DeliveryWakesTheWaitingOwnerTest {

    private static final int WINDOW = 16;

    // The window full: segments 0 to 15 out and done, every worker free.
    private final Scheduler scheduler = Schedulers.started(WINDOW, WINDOW, WINDOW, WINDOW);

    @Actor
    public void owner(JJ_Result r) {
        r.r1 = BoundedCall.start(() -> {
            Launch launch = scheduler.awaitNextJob();
            return launch == null ? -2L : launch.key().segment();
        }).await();
        r.r2 = scheduler.boardReading();
    }

    @Actor
    public void walker() {
        for (int segment = 0; segment < WINDOW / 4; segment++) {
            scheduler.delivered(segment);
        }
    }
}
