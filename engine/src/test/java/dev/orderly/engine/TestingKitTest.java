package dev.orderly.engine;

import static dev.orderly.testing.Tier2Event.Type.ADMITTED;
import static dev.orderly.testing.Tier2Event.Type.CLOSED;
import static dev.orderly.testing.Tier2Event.Type.DIALED;
import static dev.orderly.testing.Tier2Event.Type.FAILED;
import static dev.orderly.testing.Tier2Event.Type.HELD;
import static dev.orderly.testing.Tier2Event.Type.INTERRUPTED;
import static dev.orderly.testing.Tier2Event.Type.OUTPUT_LOST;
import static dev.orderly.testing.Tier2Event.Type.REFUSED;
import static dev.orderly.testing.Tier2Event.Type.SUCCEEDED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Engine;
import dev.orderly.api.EngineConfig;
import dev.orderly.api.JobKey;
import dev.orderly.api.Request;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.RequestResult;
import dev.orderly.testing.Hold;
import dev.orderly.testing.InMemoryFleet;
import dev.orderly.testing.Script;
import dev.orderly.testing.ScriptedTier2;
import dev.orderly.testing.Tier2Event;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The engine driven through the testing kit ({@code orderly-testing}), as an embedder's test would drive it: the
 * retry path, a lost output, cancellation of a running job, and several requests sharing one fleet's slots.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class TestingKitTest {

    private static final EngineConfig FAST = EngineConfig.builder()
            .refusedDelay(Duration.ofMillis(1)).failureDelay(Duration.ofMillis(1)).build();

    private final Engine engine = Orderly.engine(FAST);

    /** The README's example, as written there. */
    @Test
    void aSegmentRefusedThenFailedStillArrivesInOrder() throws Exception {
        RequestPlan plan = new RequestPlan(0, 6, 2, 3);
        JobKey unit = new JobKey(2, 1);
        ScriptedTier2 tier2 = new ScriptedTier2(plan).script(unit, Script.refuse(3).thenFail());
        List<Long> seen = new CopyOnWriteArrayList<>();
        Engine engine = Orderly.engine(EngineConfig.builder()
                .refusedDelay(Duration.ofMillis(1)).failureDelay(Duration.ofMillis(1)).build());

        RequestResult result = engine.run(
                Request.of(plan, tier2, tier2.outputs(), (segment, output) -> seen.add(segment)));

        assertEquals(List.of(0L, 1L, 2L, 3L, 4L, 5L), seen);
        assertEquals(3, result.refusals());
        assertEquals(List.of(DIALED, REFUSED, DIALED, REFUSED, DIALED, REFUSED, DIALED, ADMITTED, FAILED, CLOSED,
                DIALED, ADMITTED, SUCCEEDED, CLOSED), tier2.log().typesOf(unit));
        assertEquals(0, tier2.openCalls());   // the engine closed every call
        assertEquals(1, result.failures());
        assertEquals(0, tier2.doubleCloses());
    }

    @Test
    void aLostOutputIsRunAgainAndDeliveredOnce() throws Exception {
        RequestPlan plan = new RequestPlan(0, 4, 1, 2);
        JobKey unit = new JobKey(1, 0);
        ScriptedTier2 tier2 = new ScriptedTier2(plan).script(unit, Script.loseOutput());
        RecordingClient client = new RecordingClient();

        RequestResult result = engine.run(Request.of(plan, tier2, tier2.outputs(), client));

        assertEquals(List.of(0L, 1L, 2L, 3L), client.segments());
        assertEquals(1, result.reruns());
        assertEquals(1, tier2.log().count(OUTPUT_LOST, unit));
        assertEquals(2, tier2.log().count(ADMITTED, unit));
    }

    @Test
    void aFatalFailureCancelsAJobThatIsStillRunningAndClosesItsCall() throws Exception {
        RequestPlan plan = new RequestPlan(0, 5, 2, 4);
        JobKey held = new JobKey(0, 1);
        Hold hold = new Hold();
        ScriptedTier2 tier2 = new ScriptedTier2(plan)
                .script(held, Script.hold(hold))
                .script(new JobKey(2, 0), Script.fatal());

        RequestFailedException e = assertThrows(RequestFailedException.class,
                () -> engine.run(Request.of(plan, tier2, tier2.outputs(), new RecordingClient())));

        assertEquals(new JobKey(2, 0), e.key().orElseThrow());
        // The failure's stop closes the held call and the scope interrupts its thread, in either order.
        List<Tier2Event.Type> types = tier2.log().typesOf(held);
        assertEquals(List.of(DIALED, ADMITTED, HELD), types.subList(0, 3), types.toString());
        assertEquals(Set.of(INTERRUPTED, CLOSED), Set.copyOf(types.subList(3, types.size())),
                types.toString());
        assertEquals(5, types.size(), types.toString());
        assertEquals(0, tier2.openCalls(), "every call closed before run threw");
        assertEquals(0, hold.waiting());
        assertFalse(hold.isReleased());
    }

    @Test
    void requestsSharingOneFleetNeverHoldMoreSlotsThanItHasAndAllDeliver() throws Exception {
        InMemoryFleet fleet = InMemoryFleet.builder().instances(2).slotsPerInstance(2)
                .jobTime(Duration.ofMillis(1)).seed(7).build();
        RequestPlan plan = new RequestPlan(0, 30, 2, 4);
        List<RecordingClient> clients = new ArrayList<>();
        List<Callable<RequestResult>> requests = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            InMemoryFleet.Tenant tenant = fleet.tenant(plan);
            RecordingClient client = new RecordingClient();
            clients.add(client);
            requests.add(() -> engine.run(Request.of(plan, tenant.client(), tenant.outputs(), client)));
        }
        long refusals = 0;
        long admissions = 0;
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (Future<RequestResult> f : pool.invokeAll(requests)) {
                RequestResult result = f.get();
                assertEquals(30, result.segmentsDelivered());
                refusals += result.refusals();
                admissions += result.admissions();
            }
        }
        for (RecordingClient client : clients) {
            assertEquals(LongStream.range(0, 30).boxed().toList(), client.segments());
            assertEquals(List.of(), client.wrongOutputs());
        }
        assertTrue(fleet.peakBusySlots() <= fleet.capacity(), "peak " + fleet.peakBusySlots());
        assertEquals(0, fleet.busySlots());
        assertEquals(fleet.log().count(REFUSED), refusals, "the engine counts every refusal the fleet made");
        assertEquals(fleet.log().count(ADMITTED), admissions, "and every admission");
    }
}
