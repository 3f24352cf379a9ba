package dev.orderly.engine;

import dev.orderly.api.JobKey;
import dev.orderly.api.Request;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.Tier2Exception;
import dev.orderly.testing.Script;
import dev.orderly.testing.ScriptedTier2;
import java.util.concurrent.CountDownLatch;

/**
 * A scenario where a job's unit stops being needed before the job fails: (0,1) holds its dial until {@link #SHADOWED}
 * (1,0) has dialed; (1,0) then holds its dial until segment 1 is delivered (by (1,1), which covers stage 0 of segment
 * 1) and fails with {@code lateFailure}. Since its unit is no longer needed, the failure must not fail the request.
 */
final class LateFailingShadowedJob {

    static final JobKey SHADOWED = new JobKey(1, 0);

    final InMemoryOutputStore store = new InMemoryOutputStore();
    final RecordingClient recorder = new RecordingClient();
    final ScriptedTier2 tier2;
    private final RequestPlan plan;
    private final CountDownLatch delivered = new CountDownLatch(1);

    LateFailingShadowedJob(RequestPlan plan, Tier2Exception lateFailure) {
        this.plan = plan;
        CountDownLatch shadowedDialed = new CountDownLatch(1);
        this.tier2 = new ScriptedTier2(plan, store::write, job -> {
            if (job.key().equals(new JobKey(0, 1))) {
                shadowedDialed.await();
            }
            if (job.key().equals(SHADOWED)) {
                shadowedDialed.countDown();
                delivered.await();
                return Script.throwOnDial(lateFailure);
            }
            return Script.succeed();
        });
    }

    /** The request: its client records every segment and lets the shadowed job fail once segment 1 is delivered. */
    Request request() {
        return Request.of(plan, tier2, store, (segment, output) -> {
            recorder.accept(segment, output);
            if (segment == 1) {
                delivered.countDown();
            }
        });
    }
}
