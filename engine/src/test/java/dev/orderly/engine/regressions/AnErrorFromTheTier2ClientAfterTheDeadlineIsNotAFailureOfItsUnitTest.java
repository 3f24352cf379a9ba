package dev.orderly.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Request;
import dev.orderly.api.RequestListener;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.Tier2Client;
import dev.orderly.api.Tier2Exception;
import dev.orderly.engine.Fixtures;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
import dev.orderly.engine.RecordingClient;
import dev.orderly.engine.testlog.LogCapture;
import dev.orderly.testing.Script;
import dev.orderly.testing.ScriptedTier2;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.event.Level;

/**
 * The other side of {@link AnErrorFromTheTier2ClientIsLoggedAsAFailureTest}: an {@code Error} from a dial that the
 * request's end cut short (here its deadline, which interrupts the dial) is the echo of that end, not a failure of its
 * unit: no "failed fatally" WARN line names the unit, and the listener hears no failure of it.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AnErrorFromTheTier2ClientAfterTheDeadlineIsNotAFailureOfItsUnitTest {

    private static final RequestPlan PLAN = new RequestPlan(0, 4, 1, 2);
    private static final JobKey UNIT = new JobKey(0, 0);

    @AfterEach
    void stopCapture() {
        LogCapture.stop();
    }

    @Test
    void anErrorFromADialTheDeadlineInterruptedIsNotHeardAsAFailure() {
        EngineConfig config = Fixtures.fast();
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 fleet = new ScriptedTier2(PLAN, store::write, job -> Script.succeed());
        CountDownLatch never = new CountDownLatch(1);
        Tier2Client tier2 = job -> {
            if (!job.key().equals(UNIT)) {
                return fleet.dial(job);
            }
            try {
                never.await(20, TimeUnit.SECONDS); // ended by the deadline's interrupt, long before
            } catch (InterruptedException e) {
                throw new AssertionError("a client whose interrupt handling throws an Error");
            }
            throw new AssertionError("the deadline did not interrupt the dial within 20 s");
        };
        List<JobKey> failed = new CopyOnWriteArrayList<>();
        RequestListener listener = new RequestListener() {
            @Override
            public void onFailed(Job job, Tier2Exception cause) {
                failed.add(job.key());
            }
        };
        LogCapture.start();

        Throwable end = assertThrows(Throwable.class, () -> Orderly.engine(config).run(Request.of(PLAN, tier2, store,
                new RecordingClient()).withListener(listener).withDeadline(Duration.ofMillis(300))));

        assertTrue(String.valueOf(end.getMessage()).contains("deadline"), () -> "ended by: " + end);
        List<String> warns = LogCapture.stop().stream()
                .filter(event -> event.level() == Level.WARN && event.message().contains(UNIT + " failed"))
                .map(LogCapture.Event::message)
                .toList();
        assertEquals(List.of(), warns, "WARN lines of a failure of " + UNIT);
        assertEquals(List.of(), failed, "units the listener heard fail");
    }
}
