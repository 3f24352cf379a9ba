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
 * A delivery the walker leaves to the thread that holds the scheduler's lock is applied by that thread.
 *
 * <p>32 segments, one stage, two workers, a look-ahead of 16 (so the board may trail the client by one segment).
 * Segments 0 and 1 were handed out and segment 0's job succeeded. Actor {@code walker} reports segment 0 delivered;
 * actor {@code job} reports segment 1's job ended, which takes the lock. When the walker finds the lock taken it
 * returns without it, and the job, releasing the lock, must apply the delivery: once both are done, the board reads
 * segment 1, as the client does.
 *
 * <p>In the engine's package because the scheduler is package-private: the stress suites run on the class path,
 * where the engine's module does not hide it.
 */
@JCStressTest
@Description("The walker's delivery races a job's end that holds the scheduler's lock: the delivery is applied "
        + "(by whichever thread holds the lock last), never left behind.")
@Outcome(id = "1, 1, 0", expect = ACCEPTABLE, desc = "The board caught up with the client; no job alive.")
@Outcome(id = "0, 1, 0", expect = FORBIDDEN, desc = "The delivery was left behind: the board trails the client.")
@Outcome(expect = FORBIDDEN, desc = "Anything else: wrong reading or alive count.")
@State
public class DeliveryLeftToTheHolderTest {

    // The board may trail the client by one segment (a sixteenth of 16); segments 0 and 1 out, 0 done.
    private final Scheduler scheduler = Schedulers.started(2, 16, 2, 1);

    @Actor
    public void walker() {
        scheduler.delivered(0);
    }

    @Actor
    public void job() {
        Schedulers.jobSucceeded(scheduler, 1);
    }

    @Arbiter
    public void arbiter(JJJ_Result r) {
        r.r1 = scheduler.boardReading();
        r.r2 = scheduler.reading();
        r.r3 = scheduler.alive();
    }
}
