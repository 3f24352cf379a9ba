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
 * A withdrawal interrupts the job's thread exactly when the job is not dialing: a job withdrawn before its dial is
 * interrupted (it may be parked in the launch queue, and only the interrupt ends that wait), a job withdrawn while it
 * dials is not (it stops when the dial ends; an interrupt would cut the dial short).
 *
 * <p>{@link WithdrawalRacingTheJobsSettleTest} checks that the job sees a withdrawal and that no interrupt comes after
 * its settle, not whether the interrupt was sent: a withdrawal that never interrupts, or interrupts only a dialing
 * job, passes it. Here actor {@code job} starts a dial if it may, reads its thread's interrupt status while still
 * dialing, ends the dial and settles; actor {@code rerun} withdraws it; the arbiter reads whether any interrupt reached
 * the job's thread.
 */
@JCStressTest
@Description("A withdrawal interrupts a job that is not dialing, and never one that is.")
@Outcome(id = "1, 0, 0, 1", expect = ACCEPTABLE, desc = "Withdrawn before its dial: refused the dial, interrupted.")
@Outcome(id = "1, 1, 0, 0", expect = ACCEPTABLE, desc = "Withdrawn while it dialed: not interrupted.")
@Outcome(id = "1, 1, 0, 1", expect = ACCEPTABLE, desc = "Withdrawn after its dial ended: interrupted.")
@Outcome(id = "0, 1, 0, 0", expect = ACCEPTABLE, desc = "The job settled first: nothing withdrawn, nothing sent.")
@Outcome(id = "1, 0, 0, 0", expect = FORBIDDEN, desc = "Withdrawn before its dial but never interrupted: a job "
        + "parked in the queue would keep its worker for good.")
@Outcome(id = ".*, 1, 1, .*", expect = FORBIDDEN, desc = "Interrupted while it dialed.")
@Outcome(expect = FORBIDDEN, desc = "Anything else.")
@State
public class AWithdrawalInterruptsOnlyAJobThatIsNotDialingTest {

    private final RegisteredJob job = new RegisteredJob(new JobKey(3, 0));

    @Actor
    public void job(JJJJ_Result r) {
        JobHandle handle = job.handle();
        boolean dialed = handle.dialing(true);
        boolean interruptedWhileDialing = false;
        if (dialed) {
            // Still dialing: a withdrawal seen by now must not have interrupted.
            interruptedWhileDialing = job.interrupted();
            handle.dialing(false);
        }
        handle.settle();
        r.r2 = dialed ? 1 : 0;
        r.r3 = interruptedWhileDialing ? 1 : 0;
    }

    @Actor
    public void rerun(JJJJ_Result r) {
        r.r1 = job.running().withdraw(job.handle().key()) ? 1 : 0;
    }

    @Arbiter
    public void arbiter(JJJJ_Result r) {
        r.r4 = job.interrupted() ? 1 : 0;
    }
}
