package dev.orderly.engine.internal;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.orderly.api.JobKey;
import dev.orderly.api.Tier2Call;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJJ_Result;

/**
 * The client's re-run, finding every worker taken, asks the highest job not on a tier2 to give its worker up
 * ({@link RunningJobs#withdrawHighestWaiting}); when every job is on a tier2, the first to come off it gives its worker
 * up instead ({@link RunningJobs#giveUpForTheRerun}). The two race: the job comes off its tier2 while the re-run looks.
 *
 * <p>One job, segment 3's, is registered and on a tier2 (its call attached) before the race. Actor {@code job} detaches
 * its call and asks whether it gives its worker up, as {@code JobRunner} does before it waits to dial again; actor
 * {@code rerun} asks for a worker for segment 0's re-run. Whichever comes first, the worker is freed exactly once:
 * the re-run withdrew the job, or the job gave its worker up. A re-run that found nothing while the job gave nothing
 * up waits for a worker that no job will free.
 */
@JCStressTest
@Description("A re-run asking for a worker races the only job coming off its tier2: the worker is freed exactly once.")
@Outcome(id = "1, 0, 1", expect = ACCEPTABLE, desc = "The re-run withdrew the job.")
@Outcome(id = "0, 1, 1", expect = ACCEPTABLE, desc = "The job gave its worker up to the waiting re-run.")
@Outcome(id = "0, 0, .*", expect = FORBIDDEN, desc = "Nobody freed a worker: the re-run waits for good.")
@Outcome(expect = FORBIDDEN, desc = "Anything else: a worker freed twice, or a withdrawal the job does not show.")
@State
public class AReRunWaitingForAWorkerGetsOneTest {

    private static final JobKey RERUN = new JobKey(0, 0);

    private final RegisteredJob job = new RegisteredJob(new JobKey(3, 0));
    private final Tier2Call call = new Tier2Call() {
        @Override
        public void await() {
        }

        @Override
        public void close() {
        }
    };

    {
        if (!job.handle().attach(call)) {
            throw new IllegalStateException("set-up: the job could not attach its call");
        }
    }

    @Actor
    public void job(JJJ_Result r) {
        JobHandle handle = job.handle();
        handle.detach();
        r.r2 = handle.givesUpForTheRerun() ? 1 : 0;
    }

    @Actor
    public void rerun(JJJ_Result r) {
        r.r1 = job.running().withdrawHighestWaiting(RERUN) != null ? 1 : 0;
    }

    @Arbiter
    public void arbiter(JJJ_Result r) {
        r.r3 = job.handle().withdrawn() ? 1 : 0;
    }
}
