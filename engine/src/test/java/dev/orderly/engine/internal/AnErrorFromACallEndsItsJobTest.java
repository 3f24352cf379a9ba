package dev.orderly.engine.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Request;
import dev.orderly.api.RequestListener;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Client;
import dev.orderly.api.Tier2Exception;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An {@code Error} thrown by an admitted call's {@code await()} (an assertion inside a test's tier2, say) ends that
 * job with {@code onFailed}, a fatal failure naming the error, before it propagates: a listener counting running jobs
 * sees the job end.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AnErrorFromACallEndsItsJobTest {

    @Test
    void anAdmittedJobWhoseCallThrowsAnErrorIsReportedFailed() {
        AssertionError bug = new AssertionError("call broke");
        Tier2Client tier2 = job -> new Tier2Call() {
            @Override
            public void await() {
                throw bug;
            }

            @Override
            public void close() {
            }
        };
        List<String> heard = new CopyOnWriteArrayList<>();
        RequestListener listener = new RequestListener() {
            @Override
            public void onAdmitted(Job job) {
                heard.add("admitted " + job.key());
            }

            @Override
            public void onFailed(Job job, Tier2Exception cause) {
                heard.add("failed " + job.key() + " " + cause.kind() + " " + cause.getMessage());
            }

            @Override
            public void onJobDone(Job job) {
                heard.add("done " + job.key());
            }

            @Override
            public void onAbandoned(JobKey key) {
                heard.add("abandoned " + key);
            }
        };
        EngineConfig config = EngineConfig.builder().refusedDelay(Duration.ofMillis(2))
                .failureDelay(Duration.ofMillis(20)).build();
        Request request = Request.of(new RequestPlan(0, 1, 1, 1), tier2, new InMemoryOutputStore(),
                (segment, output) -> { }).withId("r-error").withListener(listener);

        Throwable thrown = assertThrows(Throwable.class, () -> Orderly.engine(config).run(request));

        Throwable root = thrown;
        while (root.getCause() != null && root != bug) {
            root = root.getCause();
        }
        assertEquals(bug, root, "the error is what the request ends with: " + thrown);
        JobKey unit = new JobKey(0, 0);
        assertEquals(List.of("admitted " + unit, "failed " + unit + " FATAL tier2 call threw " + bug), heard);
    }
}
