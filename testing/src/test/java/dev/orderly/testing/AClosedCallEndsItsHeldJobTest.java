package dev.orderly.testing;

import static dev.orderly.testing.Tier2Event.Type.ADMITTED;
import static dev.orderly.testing.Tier2Event.Type.CLOSED;
import static dev.orderly.testing.Tier2Event.Type.DIALED;
import static dev.orderly.testing.Tier2Event.Type.HELD;
import static dev.orderly.testing.Tier2Event.Type.INTERRUPTED;
import static dev.orderly.testing.Tier2Event.Type.SUCCEEDED;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.Tier2Call;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Regression: a {@code ScriptedTier2} call scripted with {@code Script.hold(hold)} or {@code Script.block()} went on
 * after its call was closed. Every other scripted call closed before its job ended has its {@code await} throw
 * {@link InterruptedException} at once
 * ({@code ScriptedTier2Test.aCallClosedBeforeItsJobEndedIsCancelledAndItsAwaitInterrupted}), and the
 * {@code InMemoryFleet}'s does too ("as the scripted tier2's does", {@code AClosedCallEndsItsJobOnTheFleetTest});
 * a held one stayed parked in its {@link Hold} until the hold was released or its thread interrupted: a
 * {@code block()} call closed before or during its {@code await} never ended, {@code blocked()} stayed 1, and a
 * {@code Tier2Client} that closes a call without interrupting the awaiting thread (a timeout or hedging decorator
 * under test) hung its test. A closed held call now ends its job at once, and leaves every other job of the same
 * hold held.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class AClosedCallEndsItsHeldJobTest {

    private static final RequestPlan PLAN = new RequestPlan(0, 10, 2, 4);
    private static final JobKey LAST = new JobKey(3, 1);
    private static final JobKey OTHER = new JobKey(4, 1);

    /** Awaits {@code call} on a thread of its own; what that threw (an error if it returned) goes in {@code ended}. */
    private static Thread awaitOnAThreadOfItsOwn(Tier2Call call, AtomicReference<Throwable> ended) {
        return Thread.ofPlatform().daemon().start(() -> {
            try {
                call.await();
                ended.set(new AssertionError("the held job succeeded"));
            } catch (Throwable e) {
                ended.set(e);
            }
        });
    }

    @Test
    void aBlockedCallClosedWhileItsJobIsHeldEndsAtOnce() throws Exception {
        ScriptedTier2 tier2 = new ScriptedTier2(PLAN).script(LAST, Script.block());
        Tier2Call call = tier2.dial(new Job("r-1", LAST, 1));
        AtomicReference<Throwable> ended = new AtomicReference<>();
        Thread job = awaitOnAThreadOfItsOwn(call, ended);
        try {
            await().atMost(Duration.ofSeconds(5)).until(() -> tier2.blocked() == 1);
            call.close(); // closed, not interrupted: what a client that gives up on a call does
            assertTrue(job.join(Duration.ofSeconds(5)), "the held job ran on after its call was closed");
            assertInstanceOf(InterruptedException.class, ended.get());
            assertEquals(0, tier2.blocked());
            assertEquals(0, tier2.openCalls());
            assertEquals(1, tier2.cancelledCalls());
            assertEquals(List.of(DIALED, ADMITTED, HELD, CLOSED, INTERRUPTED), tier2.log().typesOf(LAST));
        } finally {
            job.interrupt();
            job.join(Duration.ofSeconds(5));
        }
    }

    @Test
    void aHeldCallClosedBeforeItsAwaitDoesNotWaitForTheHold() throws Exception {
        Hold hold = new Hold();
        ScriptedTier2 tier2 = new ScriptedTier2(PLAN).script(LAST, Script.hold(hold));
        Tier2Call call = tier2.dial(new Job("r-1", LAST, 1));
        call.close();
        AtomicReference<Throwable> ended = new AtomicReference<>();
        Thread job = awaitOnAThreadOfItsOwn(call, ended);
        try {
            assertTrue(job.join(Duration.ofSeconds(5)), "the await of a closed call waited for its hold");
            assertInstanceOf(InterruptedException.class, ended.get());
            assertEquals(0, hold.waiting());
            assertFalse(hold.isReleased());
            assertEquals(0, tier2.blocked());
            assertEquals(INTERRUPTED, tier2.log().typesOf(LAST).getLast());
            assertEquals(0, tier2.log().count(SUCCEEDED, LAST));
            assertTrue(tier2.outputs().read(3).isEmpty(), "a cancelled job wrote its output");
        } finally {
            hold.release();
            job.interrupt();
            job.join(Duration.ofSeconds(5));
        }
    }

    @Test
    void closingOneHeldCallLeavesTheOtherJobsOfItsHoldHeld() throws Exception {
        Hold hold = new Hold();
        ScriptedTier2 tier2 = new ScriptedTier2(PLAN).script(LAST, Script.hold(hold)).script(OTHER, Script.hold(hold));
        Tier2Call closed = tier2.dial(new Job("r-1", LAST, 1));
        Tier2Call kept = tier2.dial(new Job("r-1", OTHER, 1));
        AtomicReference<Throwable> closedEnded = new AtomicReference<>();
        AtomicReference<Throwable> keptEnded = new AtomicReference<>();
        Thread closedJob = awaitOnAThreadOfItsOwn(closed, closedEnded);
        Thread keptJob = Thread.ofPlatform().daemon().start(() -> {
            try {
                kept.await();
            } catch (Throwable e) {
                keptEnded.set(e);
            }
        });
        try {
            await().atMost(Duration.ofSeconds(5)).until(() -> hold.waiting() == 2);
            closed.close();
            assertTrue(closedJob.join(Duration.ofSeconds(5)), "the closed call's job ran on");
            assertInstanceOf(InterruptedException.class, closedEnded.get());
            // The other job is still held: the close released nothing.
            await().atMost(Duration.ofSeconds(5)).until(() -> hold.waiting() == 1);
            assertTrue(keptJob.isAlive(), "closing one call let another job of the same hold go");
            assertFalse(hold.isReleased());
            hold.release();
            assertTrue(keptJob.join(Duration.ofSeconds(5)));
            assertNull(keptEnded.get(), () -> "the kept job ended with " + keptEnded.get());
            kept.close();
            assertEquals(List.of(DIALED, ADMITTED, HELD, SUCCEEDED, CLOSED), tier2.log().typesOf(OTHER));
            assertEquals(0, tier2.openCalls());
            assertEquals(0, tier2.blocked());
        } finally {
            hold.release();
            closedJob.interrupt();
            keptJob.interrupt();
            closedJob.join(Duration.ofSeconds(5));
            keptJob.join(Duration.ofSeconds(5));
        }
    }
}
