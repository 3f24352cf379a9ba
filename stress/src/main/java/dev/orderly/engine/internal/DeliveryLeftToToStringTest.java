package dev.orderly.engine.internal;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJJ_Result;

/**
 * Regression: a delivery the walker left while {@code toString()} held the scheduler's lock was never applied, as
 * {@code toString()} released the lock without looking for one (every other holder does).
 *
 * <p>32 segments, one stage, two workers, a look-ahead of 16 (so the board may trail the client by one segment).
 * Segments 0 and 1 were handed out and segment 0's job succeeded. Actor {@code walker} reports segment 0 delivered;
 * actor {@code diagnostic} formats the scheduler (an assertion's message, a debugger), which takes the lock. Once both
 * are done, the board reads segment 1, as the client does.
 *
 * <p>In the engine's package because the scheduler is package-private: the stress suites run on the class path,
 * where the engine's module does not hide it.
 */
@JCStressTest
@Description("The walker's delivery races toString(), which holds the scheduler's lock: the delivery is applied, "
        + "never left behind.")
@Outcome(id = "1, 1, 1", expect = ACCEPTABLE, desc = "The board caught up with the client.")
@Outcome(id = "0, 1, 1", expect = FORBIDDEN, desc = "The delivery was left behind: the board trails the client.")
@Outcome(expect = FORBIDDEN, desc = "Anything else: a wrong reading, or toString() gave nothing.")
@State
public class DeliveryLeftToToStringTest {

    // The board may trail the client by one segment (a sixteenth of 16); segments 0 and 1 out, 0 done.
    private final Scheduler scheduler = Schedulers.started(2, 16, 2, 1);

    @Actor
    public void walker() {
        scheduler.delivered(0);
    }

    @Actor
    public void diagnostic(JJJ_Result r) {
        r.r3 = scheduler.toString().isEmpty() ? 0 : 1;
    }

    @Arbiter
    public void arbiter(JJJ_Result r) {
        r.r1 = scheduler.boardReading();
        r.r2 = scheduler.reading();
    }
}
