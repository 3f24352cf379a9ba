package dev.orderly.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Request;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.RequestResult;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Client;
import dev.orderly.engine.Fixtures;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
import dev.orderly.engine.RecordingClient;
import dev.orderly.engine.testlog.LogCapture;
import dev.orderly.testing.ScriptedTier2;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.event.Level;

/** An {@code Error} from {@code Tier2Call.close()} is logged; the call counts as closed, the request goes on. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AnErrorFromCloseIsLoggedNotThrownTest {

    @AfterEach
    void stopCapture() {
        LogCapture.stop();
    }

    @Test
    void aCallWhoseCloseThrowsAnAssertionErrorStillCountsAsClosed() throws Exception {
        RequestPlan plan = new RequestPlan(0, 3, 1, 2);
        InMemoryOutputStore store = new InMemoryOutputStore();
        AtomicInteger closes = new AtomicInteger();
        Tier2Client tier2 = job -> new Tier2Call() {
            @Override
            public void await() {
                store.write(job.key().segment(), ScriptedTier2.outputOf(job.key().segment()));
            }

            @Override
            public void close() {
                closes.incrementAndGet();
                throw new AssertionError("close broke");
            }
        };
        RecordingClient client = new RecordingClient();
        LogCapture.start();

        RequestResult result = Orderly.engine(Fixtures.fast()).run(Request.of(plan, tier2, store, client));

        List<LogCapture.Event> warns = LogCapture.stop().stream()
                .filter(e -> e.level() == Level.WARN && e.message().contains("closing the tier2 call")).toList();
        assertEquals(Fixtures.range(0, 3), client.segments());
        assertEquals(3, result.segmentsDelivered());
        assertEquals(3, closes.get(), "each call closed once");
        assertEquals(3, warns.size(), warns.toString());
        assertTrue(warns.get(0).thrown() instanceof AssertionError, warns.toString());
    }
}
