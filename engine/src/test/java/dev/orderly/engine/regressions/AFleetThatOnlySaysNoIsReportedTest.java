package dev.orderly.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.Request;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestPlan;
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
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.event.Level;

/**
 * A request that only ever hears "no" says so: a wrong target with no deadline used to hang {@code run} with no log
 * line at INFO or WARN, and with a deadline {@code getCause()} was null. After {@code stallWarning} of nothing but
 * REFUSED/UNREACHABLE it logs one WARN naming the last status and the dials; a deadline failure's cause is the last
 * {@code Tier2Exception}.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AFleetThatOnlySaysNoIsReportedTest {

    @AfterEach
    void stopCapture() {
        LogCapture.stop();
    }

    @Test
    void oneWarnNamesTheLastStatusAndTheDialsAndTheDeadlinesCauseIsTheLastRefusal() {
        RequestPlan plan = new RequestPlan(0, 3, 1, 2);
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 tier2 = new ScriptedTier2(plan, store::write,
                job -> Script.throwOnDial(Tier2Exception.unreachable("no healthy upstream")));
        EngineConfig config = Fixtures.fast().toBuilder().stallWarning(Duration.ofMillis(100)).build();
        LogCapture.start();

        RequestFailedException e = assertThrows(RequestFailedException.class, () -> Orderly.engine(config)
                .run(Request.of(plan, tier2, store, new RecordingClient()).withDeadline(Duration.ofMillis(800))));

        List<LogCapture.Event> warns = LogCapture.stop().stream()
                .filter(event -> event.level() == Level.WARN && event.message().contains("nothing but"))
                .toList();
        assertEquals(1, warns.size(), warns.toString());
        String warn = warns.get(0).message();
        assertTrue(warn.matches(".*nothing but REFUSED/UNREACHABLE for \\d+ ms: [1-9]\\d* dial\\(s\\), the last"
                + " UNREACHABLE: no healthy upstream.*"), warn);
        Tier2Exception cause = assertInstanceOf(Tier2Exception.class, e.getCause(), e.getMessage());
        assertEquals(Tier2Exception.Kind.UNREACHABLE, cause.kind());
    }

    @Test
    void aRequestThatGetsInSaysNothing() throws Exception {
        RequestPlan plan = new RequestPlan(0, 3, 1, 2);
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 tier2 = new ScriptedTier2(plan, store::write,
                job -> job.attempt() < 3 ? Script.refuse(1) : Script.succeed());
        // Far longer than the request takes: the warning can not come.
        EngineConfig config = Fixtures.fast().toBuilder().stallWarning(Duration.ofSeconds(20)).build();
        LogCapture.start();

        Orderly.engine(config).run(Request.of(plan, tier2, store, new RecordingClient()));

        assertEquals(List.of(), LogCapture.stop().stream()
                .filter(event -> event.level() == Level.WARN).map(LogCapture.Event::message).toList());
    }
}
