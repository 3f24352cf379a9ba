package dev.orderly.engine.internal;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.orderly.api.JobKey;
import dev.orderly.api.Tier2Call;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJJJJ_Result;

/**
 * A job's handle takes no lock for the job's own steps: the cancel of a covered unit races the job's admitted life
 * (attach, detach, close, end).
 *
 * <p>Segment 0's stage-0 job is registered before the race ({@link RegisteredJob}). Actor {@code job} takes its steps
 * as {@code JobRunner} does: it attaches its call, detaches it, closes what it got back, and ends. Actor {@code
 * covered} reports stage 1 of segment 0 done, which cancels the stage-0 job. Whichever comes first, the call is
 * closed exactly once (by the job, or by the canceller that took it), already when the job's end returns (a job counts
 * as alive until its call is closed, so the end of a job whose call a canceller took waits for that close), and no
 * interrupt reaches the job's thread after its end returned. The job reads the close count right after its end; the
 * arbiter reads it again once both actors are done, so a close after the end, or a second one, shows either way. A
 * cancel that came before the job attached its call (so the job refuses it) found the job with no call and not ended:
 * it must have interrupted the job's thread, or a job waiting for its turn, or a delay, would keep its worker.
 */
@JCStressTest
@Description("A cancel racing a job's lock-free steps: its call closed exactly once, before its end returned; no "
        + "interrupt after its end.")
@Outcome(id = "1, 1, 1, 0, [01]", expect = ACCEPTABLE, desc = "The job attached its call; one close, before the end "
        + "returned; nothing after the end.")
@Outcome(id = "0, 1, 1, 0, 1", expect = ACCEPTABLE, desc = "Cancelled before it attached: interrupted; it closed the "
        + "call itself.")
@Outcome(id = "0, .*, .*, .*, 0", expect = FORBIDDEN, desc = "Cancelled before it attached, with no call to close, "
        + "but never interrupted.")
@Outcome(id = ".*, 0, .*, 0, .*", expect = FORBIDDEN, desc = "The job's end returned while the canceller still closed its "
        + "call: the job counted as ended with its call open.")
@Outcome(id = ".*, .*, .*, 1, .*", expect = FORBIDDEN, desc = "An interrupt reached the job after its end had returned.")
@Outcome(expect = FORBIDDEN, desc = "Anything else: the call closed twice or never.")
@State
public class CancelRacingTheJobsEndTest {

    private static final JobKey LOWER = new JobKey(0, 0);
    private static final JobKey HIGHER = new JobKey(0, 1);

    private final RegisteredJob job = new RegisteredJob(LOWER);
    private final AtomicInteger closes = new AtomicInteger();
    private final Tier2Call call = new Tier2Call() {
        @Override
        public void await() {
        }

        @Override
        public void close() {
            closes.incrementAndGet();
        }
    };

    @Actor
    public void job(JJJJJ_Result r) {
        JobHandle handle = job.handle();
        boolean attached = handle.attach(call);
        Tier2Call mine = attached ? handle.detach() : call;
        if (mine != null) {
            RunningJobs.close(mine, LOWER);
        }
        job.running().end(handle);
        job.ended();
        // The closes the job's end saw: a canceller that took the call has closed it before the end returns.
        r.r2 = closes.get();
        r.r1 = attached ? 1 : 0;
    }

    @Actor
    public void covered() {
        job.running().cancelCoveredBy(HIGHER);
    }

    @Arbiter
    public void arbiter(JJJJJ_Result r) {
        r.r3 = closes.get();
        r.r4 = job.interruptedAfterItsEnd() ? 1 : 0;
        r.r5 = job.interrupted() ? 1 : 0;
    }
}
