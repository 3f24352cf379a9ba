package dev.orderly.testing;

import static dev.orderly.testing.Tier2Event.Type.DIALED;
import static dev.orderly.testing.Tier2Event.Type.DIAL_THREW;
import static dev.orderly.testing.Tier2Event.Type.INTERRUPTED;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.RequestPlan;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Regression: "every dial and its outcome is recorded in log()", but a dial whose {@code DialRule} threw (an
 * {@code Error}, the documented way to throw one from a dial; a {@code RuntimeException}; or an
 * {@code InterruptedException} of a rule that blocks on a latch, as the guide suggests, when the engine cancels the
 * dial) left a lone {@code DIALED} with no outcome, where the same dial scripted with {@code throwOnDial} or
 * {@code holdDial} logs {@code DIAL_THREW} or {@code INTERRUPTED}.
 */
@Timeout(10)
class ADialWhoseRuleThrowsRecordsItsOutcomeTest {

    private static final RequestPlan PLAN = new RequestPlan(0, 4, 1, 2);
    private static final JobKey UNIT = new JobKey(1, 0);

    @Test
    void aRuleThatThrowsAnErrorLogsDialThrew() {
        ScriptedTier2 tier2 = new ScriptedTier2(PLAN, null, job -> {
            throw new AssertionError("rule's own error");
        });
        assertThrows(AssertionError.class, () -> tier2.dial(new Job("r-1", UNIT, 1)));
        assertEquals(List.of(DIALED, DIAL_THREW), tier2.log().typesOf(UNIT));
    }

    @Test
    void aRuleThatThrowsARuntimeExceptionLogsDialThrew() {
        ScriptedTier2 tier2 = new ScriptedTier2(PLAN, null, job -> {
            throw new IllegalStateException("rule's own bug");
        });
        assertThrows(IllegalStateException.class, () -> tier2.dial(new Job("r-1", UNIT, 1)));
        assertEquals(List.of(DIALED, DIAL_THREW), tier2.log().typesOf(UNIT));
    }

    @Test
    void aRuleBlockedOnALatchAndInterruptedLogsInterrupted() throws Exception {
        CountDownLatch never = new CountDownLatch(1);
        CountDownLatch inRule = new CountDownLatch(1);
        ScriptedTier2 tier2 = new ScriptedTier2(PLAN, null, job -> {
            inRule.countDown();
            never.await();
            return Script.succeed();
        });
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread dialer = new Thread(() -> {
            try {
                tier2.dial(new Job("r-1", UNIT, 1)).close();
            } catch (Throwable t) {
                thrown.set(t);
            }
        });
        dialer.start();
        try {
            inRule.await();
            dialer.interrupt();
            dialer.join(Duration.ofSeconds(5).toMillis());
            await().atMost(Duration.ofSeconds(5)).until(() -> thrown.get() != null);
            assertInstanceOf(InterruptedException.class, thrown.get());
            assertEquals(List.of(DIALED, INTERRUPTED), tier2.log().typesOf(UNIT));
        } finally {
            never.countDown();
            dialer.interrupt();
            dialer.join(Duration.ofSeconds(5).toMillis());
        }
    }

    @Test
    void aRuleThatReturnsNoScriptLogsDialThrew() {
        ScriptedTier2 tier2 = new ScriptedTier2(PLAN, null, job -> null);
        assertThrows(NullPointerException.class, () -> tier2.dial(new Job("r-1", UNIT, 1)));
        assertEquals(List.of(DIALED, DIAL_THREW), tier2.log().typesOf(UNIT));
    }
}
