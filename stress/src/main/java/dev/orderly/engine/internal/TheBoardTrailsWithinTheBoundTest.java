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
 * The board trails the client by at most the bound, whichever thread applies the walker's deliveries.
 *
 * <p>32 segments, one stage, four workers, a look-ahead of 16 (so the board may trail the client by one segment).
 * Segments 0 to 2 were handed out and the jobs of 0 and 1 succeeded. Actor {@code walker} reports segments 0 and 1
 * delivered: the first takes no lock, the second must take it unless the board has caught up with the first
 * meanwhile. Actor {@code job} reports segment 2's job ended, which takes the lock and applies whatever the walker
 * left by then. Once both are done, the board (read without the lock) reads segment 1 or 2, never 0.
 *
 * <p>In the engine's package because the scheduler is package-private: the stress suites run on the class path,
 * where the engine's module does not hide it.
 */
@JCStressTest
@Description("The walker's deliveries race a job's end that applies them: the board never trails the client by more "
        + "than the bound.")
@Outcome(id = "2, 2, 0", expect = ACCEPTABLE, desc = "The board caught up with the client.")
@Outcome(id = "1, 2, 0", expect = ACCEPTABLE, desc = "The job applied the first delivery; the second is left behind.")
@Outcome(id = "0, 2, 0", expect = FORBIDDEN, desc = "The board trails the client by two segments, past the bound.")
@Outcome(expect = FORBIDDEN, desc = "Anything else: a wrong reading or alive count.")
@State
public class TheBoardTrailsWithinTheBoundTest {

    // The board may trail the client by one segment (a sixteenth of 16); segments 0 to 2 out, 0 and 1 done.
    private final Scheduler scheduler = Schedulers.started(4, 16, 3, 2);

    @Actor
    public void walker() {
        scheduler.delivered(0);
        scheduler.delivered(1);
    }

    @Actor
    public void job() {
        Schedulers.jobSucceeded(scheduler, 2);
    }

    @Arbiter
    public void arbiter(JJJ_Result r) {
        // The board before anything else takes the lock (alive() applies what is left).
        r.r1 = scheduler.boardReading();
        r.r2 = scheduler.reading();
        r.r3 = scheduler.alive();
    }
}
