package dev.orderly.engine.internal;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.orderly.api.JobKey;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJJJ_Result;

/**
 * A withdrawal (the client's segment re-run takes a worker back) races a job's lock-free steps: a dial's start and
 * end, then the job stopping for its unit's sake ({@code settle}).
 *
 * <p>The job is registered before the race ({@link RegisteredJob}). Actor {@code job} starts a dial if it may, ends
 * it, and settles; actor {@code rerun} withdraws it. A withdrawal that succeeded must be seen by the job (its dial
 * refused, or its settle saying an interrupt may have been sent), a job that settled first is not withdrawn, and no
 * interrupt reaches the job's thread after its settle returned.
 */
@JCStressTest
@Description("A withdrawal racing a job's lock-free steps: seen by the job when it succeeded, no interrupt after "
        + "the job settled.")
@Outcome(id = "1, 1, 1, 0", expect = ACCEPTABLE, desc = "Withdrawn after its dial began; its settle says so.")
@Outcome(id = "1, 0, 1, 0", expect = ACCEPTABLE, desc = "Withdrawn before its dial: it did not dial.")
@Outcome(id = "0, 1, 0, 0", expect = ACCEPTABLE, desc = "The job settled first: nothing withdrawn, nothing sent.")
@Outcome(id = ".*, .*, .*, 1", expect = FORBIDDEN, desc = "An interrupt reached the job after it settled.")
@Outcome(expect = FORBIDDEN, desc = "Anything else: a withdrawal the job did not see, or one it saw that failed.")
@State
public class WithdrawalRacingTheJobsSettleTest {

    private final RegisteredJob job = new RegisteredJob(new JobKey(3, 0));

    @Actor
    public void job(JJJJ_Result r) {
        JobHandle handle = job.handle();
        boolean dialed = handle.dialing(true);
        if (dialed) {
            handle.dialing(false);
        }
        boolean mayHaveBeenSent = handle.settle();
        job.ended();
        r.r2 = dialed ? 1 : 0;
        r.r3 = mayHaveBeenSent || !dialed ? 1 : 0;
    }

    @Actor
    public void rerun(JJJJ_Result r) {
        r.r1 = job.running().withdraw(job.handle().key()) ? 1 : 0;
    }

    @Arbiter
    public void arbiter(JJJJ_Result r) {
        r.r4 = job.interruptedAfterItsEnd() ? 1 : 0;
    }
}
