package dev.orderly.testing;

import static dev.orderly.testing.Tier2Event.Type.ADMITTED;
import static dev.orderly.testing.Tier2Event.Type.AWAIT_THREW;
import static dev.orderly.testing.Tier2Event.Type.CLOSED;
import static dev.orderly.testing.Tier2Event.Type.DIALED;
import static dev.orderly.testing.Tier2Event.Type.DIAL_THREW;
import static dev.orderly.testing.Tier2Event.Type.FAILED;
import static dev.orderly.testing.Tier2Event.Type.FATAL;
import static dev.orderly.testing.Tier2Event.Type.HELD;
import static dev.orderly.testing.Tier2Event.Type.INTERRUPTED;
import static dev.orderly.testing.Tier2Event.Type.OUTPUT_LOST;
import static dev.orderly.testing.Tier2Event.Type.REFUSED;
import static dev.orderly.testing.Tier2Event.Type.SUCCEEDED;
import static dev.orderly.testing.Tier2Event.Type.TIMED_OUT;
import static dev.orderly.testing.Tier2Event.Type.UNREACHABLE;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Exception;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class ScriptedTier2Test {

    private static final RequestPlan PLAN = new RequestPlan(0, 10, 2, 4);
    private static final JobKey LAST = new JobKey(3, 1);
    private static final JobKey FIRST = new JobKey(3, 0);

    private final ScriptedTier2 tier2 = new ScriptedTier2(PLAN);
    private int attempt;

    private Job job(JobKey key) {
        return new Job("r-1", key, ++attempt);
    }

    /** Dials {@code key} once and awaits the call; returns the kind it threw, or empty on success. */
    private Optional<Tier2Exception.Kind> dialOnce(JobKey key) throws InterruptedException {
        try (Tier2Call call = tier2.dial(job(key))) {
            call.await();
            return Optional.empty();
        } catch (Tier2Exception e) {
            return Optional.of(e.kind());
        }
    }

    @Test
    void aUnitWithNoScriptSucceedsAndALastStageWritesItsOutput() throws Exception {
        assertEquals(Optional.empty(), dialOnce(LAST));
        assertEquals(Optional.empty(), dialOnce(FIRST));
        assertEquals(List.of(DIALED, ADMITTED, SUCCEEDED, CLOSED), tier2.log().typesOf(LAST));
        assertArrayEquals(ScriptedTier2.outputOf(3), tier2.outputs().read(3).orElseThrow());
        assertEquals("output 3", new String(ScriptedTier2.outputOf(3), java.nio.charset.StandardCharsets.UTF_8));
        assertEquals(Optional.empty(), tier2.outputs().read(4), "no job of segment 4 ran");
    }

    @Test
    void eachDialTakesTheNextStepThenEveryDialSucceeds() throws Exception {
        tier2.script(LAST, Script.refuse(2).thenUnreachable(1).thenFail().thenTimeOut().thenFatal());
        List<Optional<Tier2Exception.Kind>> kinds = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            kinds.add(dialOnce(LAST));
        }
        assertEquals(List.of(Optional.of(Tier2Exception.Kind.REFUSED), Optional.of(Tier2Exception.Kind.REFUSED),
                Optional.of(Tier2Exception.Kind.UNREACHABLE), Optional.of(Tier2Exception.Kind.RETRYABLE),
                Optional.of(Tier2Exception.Kind.EXECUTION_TIMEOUT), Optional.of(Tier2Exception.Kind.FATAL),
                Optional.empty()), kinds);
        assertEquals(List.of(DIALED, REFUSED, DIALED, REFUSED, DIALED, UNREACHABLE,
                DIALED, ADMITTED, FAILED, CLOSED, DIALED, ADMITTED, TIMED_OUT, CLOSED, DIALED, ADMITTED, FATAL, CLOSED,
                DIALED, ADMITTED, SUCCEEDED, CLOSED), tier2.log().typesOf(LAST));
        assertEquals(0, tier2.openCalls());
        assertEquals(List.of(), tier2.log().typesOf(FIRST), "a script touches its own unit only");
    }

    @Test
    void aLostOutputLeavesTheStoreWithoutTheSegmentThenTheNextRunWritesIt() throws Exception {
        tier2.script(LAST, Script.loseOutput());
        assertEquals(Optional.empty(), dialOnce(LAST));
        assertEquals(Optional.empty(), tier2.outputs().read(3));
        assertEquals(Optional.empty(), dialOnce(LAST));
        assertTrue(tier2.outputs().read(3).isPresent());
        assertEquals(1, tier2.log().count(OUTPUT_LOST, LAST));
    }

    @Test
    void aHeldJobRunsUntilReleasedThenSucceeds() throws Exception {
        Hold hold = new Hold();
        tier2.script(LAST, Script.hold(hold));
        AtomicReference<Optional<Tier2Exception.Kind>> outcome = new AtomicReference<>();
        Thread job = Thread.ofVirtual().start(() -> {
            try {
                outcome.set(dialOnce(LAST));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        await().atMost(Duration.ofSeconds(5)).until(() -> hold.waiting() == 1);
        assertEquals(1, tier2.openCalls());
        assertEquals(List.of(DIALED, ADMITTED, HELD), tier2.log().typesOf(LAST));
        hold.release();
        assertTrue(job.join(Duration.ofSeconds(5)));
        assertEquals(Optional.empty(), outcome.get());
        assertEquals(List.of(DIALED, ADMITTED, HELD, SUCCEEDED, CLOSED), tier2.log().typesOf(LAST));
    }

    @Test
    void aHeldJobEndsPromptlyWhenItsThreadIsInterrupted() throws Exception {
        Hold hold = new Hold();
        tier2.script(LAST, Script.hold(hold));
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread job = Thread.ofVirtual().start(() -> {
            try {
                dialOnce(LAST);
            } catch (InterruptedException e) {
                thrown.set(e);
            }
        });
        await().atMost(Duration.ofSeconds(5)).until(() -> hold.waiting() == 1);
        job.interrupt();
        assertTrue(job.join(Duration.ofSeconds(5)));
        assertTrue(thrown.get() instanceof InterruptedException, String.valueOf(thrown.get()));
        assertEquals(List.of(DIALED, ADMITTED, HELD, INTERRUPTED, CLOSED), tier2.log().typesOf(LAST));
        assertEquals(0, hold.waiting());
        assertEquals(0, tier2.openCalls());
    }

    @Test
    void closingACallTwiceIsCountedOnce() throws Exception {
        Tier2Call call = tier2.dial(job(LAST));
        call.await();
        call.close();
        call.close();
        assertEquals(0, tier2.openCalls());
        assertEquals(1, tier2.doubleCloses());
        assertEquals(1, tier2.log().count(CLOSED));
    }

    @Test
    void aNewScriptReplacesWhatIsLeftOfTheOld() throws Exception {
        tier2.script(LAST, Script.refuse(5));
        assertEquals(Optional.of(Tier2Exception.Kind.REFUSED), dialOnce(LAST));
        tier2.script(LAST, Script.fail());
        assertEquals(Optional.of(Tier2Exception.Kind.RETRYABLE), dialOnce(LAST));
        assertEquals(Optional.empty(), dialOnce(LAST));
    }

    @Test
    void badArgumentsAreRejectedNamingThem() {
        assertEquals("times must be >= 0, was -1",
                assertThrows(IllegalArgumentException.class, () -> Script.refuse(-1)).getMessage());
        assertEquals("hold", assertThrows(NullPointerException.class, () -> Script.hold(null)).getMessage());
        assertEquals("plan", assertThrows(NullPointerException.class, () -> new ScriptedTier2(null)).getMessage());
        assertEquals("key", assertThrows(NullPointerException.class,
                () -> tier2.script(null, Script.fail())).getMessage());
    }

    @Test
    void manyThreadsDialingAtOnceEachTakeADistinctStep() throws Exception {
        int threads = 8;
        tier2.script(LAST, Script.refuse(threads * 10));
        List<Thread> started = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            started.add(Thread.ofVirtual().start(() -> {
                for (int i = 0; i < 10; i++) {
                    try {
                        tier2.dial(new Job("r-1", LAST, 1)).close();
                    } catch (Tier2Exception e) {
                        // the scripted refusal
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
            }));
        }
        for (Thread t : started) {
            assertTrue(t.join(Duration.ofSeconds(5)));
        }
        assertEquals(threads * 10, tier2.log().count(REFUSED), "each refusal step used exactly once");
        assertEquals(0, tier2.log().count(ADMITTED));
        List<Tier2Event> events = tier2.log().events();
        for (int i = 0; i < events.size(); i++) {
            assertEquals(i, events.get(i).sequence());
        }
    }

    @Test
    void aHeldDialBlocksUntilReleasedThenIsAdmitted() throws Exception {
        Hold hold = new Hold();
        tier2.script(LAST, Script.holdDial(hold));
        AtomicReference<Tier2Call> call = new AtomicReference<>();
        Thread dialer = Thread.ofVirtual().start(() -> {
            try {
                call.set(tier2.dial(job(LAST)));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        await().atMost(Duration.ofSeconds(5)).until(() -> tier2.blocked() == 1);
        assertEquals(List.of(DIALED, HELD), tier2.log().typesOf(LAST), "not admitted while the dial is held");
        hold.release();
        assertTrue(dialer.join(Duration.ofSeconds(5)));
        call.get().await();
        call.get().close();
        assertEquals(0, tier2.blocked());
        assertEquals(List.of(DIALED, HELD, ADMITTED, SUCCEEDED, CLOSED), tier2.log().typesOf(LAST));
    }

    @Test
    void aBlockedDialEndsOnlyByAnInterrupt() throws Exception {
        tier2.script(LAST, Script.blockDial());
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread dialer = Thread.ofVirtual().start(() -> {
            try {
                tier2.dial(job(LAST));
            } catch (Throwable t) {
                thrown.set(t);
            }
        });
        await().atMost(Duration.ofSeconds(5)).until(() -> tier2.blocked() == 1);
        assertTrue(dialer.isAlive(), "a blocked dial returned by itself");
        dialer.interrupt();
        assertTrue(dialer.join(Duration.ofSeconds(5)));
        assertTrue(thrown.get() instanceof InterruptedException, String.valueOf(thrown.get()));
        assertEquals(0, tier2.blocked());
        assertEquals(0, tier2.openCalls());
        assertEquals(List.of(DIALED, HELD, INTERRUPTED), tier2.log().typesOf(LAST));
    }

    @Test
    void aScriptedErrorIsThrownAsItIsFromDialOrAwait() throws Exception {
        IllegalStateException bug = new IllegalStateException("client bug");
        Tier2Exception reset = Tier2Exception.retryable("stream reset", null);
        tier2.script(LAST, Script.throwOnDial(bug));
        tier2.script(FIRST, Script.throwOnAwait(reset));
        assertTrue(bug == assertThrows(IllegalStateException.class, () -> tier2.dial(job(LAST))));
        try (Tier2Call call = tier2.dial(job(FIRST))) {
            assertTrue(reset == assertThrows(Tier2Exception.class, call::await));
        }
        assertEquals(List.of(DIALED, DIAL_THREW), tier2.log().typesOf(LAST));
        assertEquals(List.of(DIALED, ADMITTED, AWAIT_THREW, CLOSED), tier2.log().typesOf(FIRST));
    }

    @Test
    void aRuleDecidesEachDialOfAUnitWithNoScriptLeft() throws Exception {
        Map<Long, byte[]> sink = new ConcurrentHashMap<>();
        ScriptedTier2 ruled = new ScriptedTier2(PLAN, sink::put,
                job -> job.attempt() == 1 ? Script.refuse(1) : Script.succeed());
        ruled.script(FIRST, Script.fail());
        try (Tier2Call call = ruled.dial(new Job("r-1", FIRST, 1))) {
            assertEquals(Tier2Exception.Kind.RETRYABLE, assertThrows(Tier2Exception.class, call::await).kind(),
                    "the unit's script comes before the rule");
        }
        assertEquals(Tier2Exception.Kind.REFUSED,
                assertThrows(Tier2Exception.class, () -> ruled.dial(new Job("r-1", LAST, 1))).kind());
        try (Tier2Call call = ruled.dial(new Job("r-1", LAST, 2))) {
            call.await();
        }
        assertArrayEquals(ScriptedTier2.outputOf(3), sink.get(3L), "the output went to the sink");
        assertTrue(ruled.outputs().read(3).isEmpty(), "and not to the tier2's own store");
        assertEquals(List.of(LAST, LAST), ruled.log().dials().stream().filter(j -> j.key().equals(LAST))
                .map(Job::key).toList());
        assertEquals(2, ruled.log().dialsOf(LAST));
    }

    @Test
    void aDialAheadOfTheStageBelowItIsAViolation() throws Exception {
        dialOnce(new JobKey(1, 1));
        assertEquals(List.of("segment 1 stage 1 dialed while segment 0 had stages done only up to -1"),
                tier2.dependencyViolations());
        dialOnce(new JobKey(0, 0));
        dialOnce(new JobKey(2, 1));
        assertEquals(1, tier2.dependencyViolations().size(), "stage 1 once stage 0 below is done breaks nothing");
    }

    @Test
    void aCallClosedBeforeItsJobEndedIsCancelledAndItsAwaitInterrupted() throws Exception {
        Tier2Call call = tier2.dial(job(LAST));
        call.close();
        assertThrows(InterruptedException.class, call::await);
        call.close();
        assertEquals(1, tier2.cancelledCalls());
        assertEquals(1, tier2.doubleCloses());
        assertEquals(0, tier2.openCalls());
        assertTrue(tier2.outputs().read(3).isEmpty(), "a cancelled job wrote its output");
    }
}
