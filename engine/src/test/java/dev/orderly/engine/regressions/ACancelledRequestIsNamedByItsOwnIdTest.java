package dev.orderly.engine.regressions;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.orderly.api.Request;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestPlan;
import dev.orderly.engine.Background;
import dev.orderly.engine.Fixtures;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
import dev.orderly.testing.Script;
import dev.orderly.testing.ScriptedTier2;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Regression: the {@code InterruptedException} of a request cancelled while it ran named it by its scope's thread name,
 * "request orderly-r-7 cancelled by interrupt", an id the request does not have, while every other message and log
 * line of the same cancellation names it "request r-7" (the suppressed {@code RequestFailedException}, the INFO line,
 * the "not started" message of an interrupt pending at the call). A caller matching the message against its ids, or
 * searching its logs for it, found nothing. Runs under both request scopes (the engine module's two executions).
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ACancelledRequestIsNamedByItsOwnIdTest {

    @Test
    void theInterruptedExceptionNamesTheRequestAsItsIdIs() {
        RequestPlan plan = new RequestPlan(0, 3, 1, 2);
        InMemoryOutputStore store = new InMemoryOutputStore();
        ScriptedTier2 tier2 = new ScriptedTier2(plan, store::write, job -> Script.block());
        Background run = new Background(Orderly.engine(Fixtures.fast()),
                Request.of(plan, tier2, store, (segment, output) -> { }).withId("r-7"));
        await().atMost(Duration.ofSeconds(10)).until(() -> tier2.blocked() == 2);
        run.interrupt();

        InterruptedException e = assertInstanceOf(InterruptedException.class, run.failure(20));
        assertEquals("request r-7 cancelled by interrupt", e.getMessage());
        RequestFailedException figures = assertInstanceOf(RequestFailedException.class, e.getSuppressed()[0]);
        assertEquals("request r-7 cancelled by interrupt after 0 of 3 segments delivered", figures.getMessage());
    }
}
