package dev.orderly.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.Request;
import dev.orderly.api.RequestPlan;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.event.Level;

/**
 * The one DEBUG line a request logs when it starts names how its jobs are launched, with the figures an operator
 * needs to read its pacing: the launch queue's window and delays in ordered mode, the delays alone in the unordered
 * baseline.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class TheStartLineNamesTheLaunchGateTest {

    /** 10 workers: a window of 2 with the default percent and bounds. */
    private static final RequestPlan PLAN = new RequestPlan(0, 3, 1, 10);

    @AfterEach
    void stopCapture() {
        LogCapture.stop();
    }

    private static String startLine(EngineConfig config, String id) throws Exception {
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 tier2 = new ScriptedTier2(PLAN, store::write, job -> Script.succeed());
        LogCapture.start();
        Orderly.engine(config).run(Request.of(PLAN, tier2, store, new RecordingClient()).withId(id));
        List<String> starts = LogCapture.stop().stream()
                .filter(e -> e.level() == Level.DEBUG && e.logger().endsWith(".OrderlyEngine"))
                .map(LogCapture.Event::message)
                .filter(m -> m.startsWith("request " + id + " starts: "))
                .toList();
        assertEquals(1, starts.size(), starts.toString());
        return starts.get(0);
    }

    @Test
    void anOrderedRequestNamesItsLaunchQueueWindowAndDelays() throws Exception {
        String line = startLine(Fixtures.fast(), "req-ordered");
        assertTrue(line.endsWith(", LaunchQueue[window=2, refusedDelay=2ms, failureDelay=20ms]"), line);
    }

    @Test
    void anUnorderedRequestNamesItsDelays() throws Exception {
        String line = startLine(Fixtures.fastUnordered(), "req-unordered");
        assertTrue(line.endsWith(", DelayGate[refusedDelay=2ms, failureDelay=20ms]"), line);
    }
}
