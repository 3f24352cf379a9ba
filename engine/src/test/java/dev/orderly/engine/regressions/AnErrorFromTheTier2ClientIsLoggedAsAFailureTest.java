package dev.orderly.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.JobKey;
import dev.orderly.api.Request;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Client;
import dev.orderly.engine.Fixtures;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
import dev.orderly.engine.RecordingClient;
import dev.orderly.engine.testlog.LogCapture;
import dev.orderly.testing.Script;
import dev.orderly.testing.ScriptedTier2;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.event.Level;

/**
 * Every failure of a unit is logged at WARN ("failed fatally on attempt N" for a RuntimeException from the tier2
 * client), naming the unit. An {@code Error} (not a VirtualMachineError) from {@code Tier2Client.dial} or
 * {@code Tier2Call.await} failed the request naming the unit, and the listener heard it as fatal, but no WARN line was
 * logged: an operator reading the WARN lines of a failed request found nothing of the failure that ended it.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AnErrorFromTheTier2ClientIsLoggedAsAFailureTest {

    private static final RequestPlan PLAN = new RequestPlan(0, 4, 1, 2);
    private static final JobKey UNIT = new JobKey(2, 0);

    @AfterEach
    void stopCapture() {
        LogCapture.stop();
    }

    @ParameterizedTest(name = "from await={0}")
    @ValueSource(booleans = {false, true})
    void oneWarnNamesTheUnitAndTheError(boolean fromAwait) {
        EngineConfig config = Fixtures.fast();
        AssertionError bug = new AssertionError("fake tier2 asserted");
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 fleet = new ScriptedTier2(PLAN, store::write, job -> Script.succeed());
        Tier2Client tier2 = job -> {
            if (!job.key().equals(UNIT)) {
                return fleet.dial(job);
            }
            if (!fromAwait) {
                throw bug;
            }
            return new Tier2Call() {
                @Override
                public void await() {
                    throw bug;
                }
            };
        };
        LogCapture.start();

        RequestFailedException failure = assertThrows(RequestFailedException.class, () -> Orderly.engine(config)
                .run(Request.of(PLAN, tier2, store, new RecordingClient())));

        assertEquals(UNIT, failure.key().orElseThrow());
        assertSame(bug, failure.getCause());
        List<String> warns = LogCapture.stop().stream()
                .filter(event -> event.level() == Level.WARN && event.message().contains(UNIT.toString()))
                .map(LogCapture.Event::message)
                .toList();
        assertEquals(1, warns.size(), "WARN lines naming " + UNIT + ": " + warns);
        assertEquals(true, warns.get(0).contains("fake tier2 asserted"), warns.get(0));
    }
}
