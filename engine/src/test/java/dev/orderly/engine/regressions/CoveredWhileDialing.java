package dev.orderly.engine.regressions;

import dev.orderly.api.JobKey;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Client;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The race of the tests of an {@code Error} from a covered unit's dial. Two stages, two workers: (0,1) and (1,0) are
 * the first two jobs; once (0,1) is done, (1,1) can run, and it dials only once (1,0) is dialing, so that its success
 * covers (1,0) while (1,0) is still in its dial, whose interrupt the test's dial then answers as it likes.
 */
final class CoveredWhileDialing {

    static final JobKey LOW = new JobKey(1, 0);
    static final JobKey HIGH = new JobKey(1, 1);

    private CoveredWhileDialing() {
    }

    /** A tier2 on which {@link #LOW}'s dial is {@code lowDial} and every other unit's is {@code others}'. */
    static Tier2Client tier2(Tier2Client lowDial, Tier2Client others) {
        CountDownLatch lowDialing = new CountDownLatch(1);
        return job -> {
            if (job.key().equals(LOW)) {
                lowDialing.countDown();
                return lowDial.dial(job);
            }
            if (job.key().equals(HIGH) && !lowDialing.await(20, TimeUnit.SECONDS)) {
                throw new AssertionError(LOW + " never dialed");
            }
            return others.dial(job);
        };
    }

    /**
     * Holds the calling dial until its thread is interrupted, and throws that interrupt; never returns.
     *
     * @param what the dial, for the message if it is never interrupted
     */
    static Tier2Call heldUntilInterrupted(String what) throws InterruptedException {
        new CountDownLatch(1).await(20, TimeUnit.SECONDS);
        throw new AssertionError(what + " was never interrupted");
    }
}
