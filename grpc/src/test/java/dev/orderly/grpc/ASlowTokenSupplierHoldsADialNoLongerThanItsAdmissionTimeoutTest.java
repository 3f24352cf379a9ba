package dev.orderly.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Exception;
import dev.orderly.api.Tier2Exception.Kind;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A dial returns within its admission timeout (UNREACHABLE past it: nothing ran) and an interrupt cancels it, whatever
 * the tier2 does; the same must hold when what is slow is the client's own bearer token supplier (a vault out of
 * reach, a refresh that hangs), which is asked on the dialing thread before the call starts.
 *
 * <p>The bug: the dial waited for the supplier for as long as it took, past the admission timeout, and an interrupt
 * (the engine cancelling the request) did not end it when the supplier did not answer interrupts.
 *
 * <p>And a supplier that never returns holds one thread of the client, however many dials come: a dial that comes
 * while it is still asked waits for that answer rather than asking again. The bug: each dial asked it on a virtual
 * thread of its own and gave up at its admission timeout, leaving the thread parked in the supplier: a tier1 that kept
 * dialing (each dial UNREACHABLE, dialed again) piled up a parked thread, and a call of the supplier, per dial.
 */
@Timeout(60)
class ASlowTokenSupplierHoldsADialNoLongerThanItsAdmissionTimeoutTest {

    private final CountDownLatch vaultAnswers = new CountDownLatch(1);
    private final AtomicInteger asked = new AtomicInteger();
    private Tier2Server server;
    private GrpcTier2Client client;

    /**
     * A token that comes only once the test lets it, deaf to interrupts (blocking I/O that ignores them); counts its
     * calls.
     */
    private final Supplier<String> hangingVault = () -> {
        asked.incrementAndGet();
        boolean interrupted = false;
        while (true) {
            try {
                vaultAnswers.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return "t";
    };

    @BeforeEach
    void start() throws Exception {
        server = Tier2Server.builder().worker((job, work) -> { }).bearerTokens(List.of("t"))
                .drainGrace(Duration.ZERO).build().start();
        client = GrpcTier2Client.builder().target("127.0.0.1:" + server.port())
                .admissionTimeout(Duration.ofMillis(300)).bearerToken(hangingVault).build();
    }

    @AfterEach
    void stop() {
        vaultAnswers.countDown();
        client.close();
        server.close();
    }

    private FutureTask<Object> dialInBackground() {
        FutureTask<Object> dial = new FutureTask<>(() -> client.dial(new Job("r", new JobKey(0, 0), 1)));
        Thread.ofVirtual().start(dial);
        return dial;
    }

    @Test
    void aSupplierThatDoesNotAnswerMakesTheDialUnreachableAtItsAdmissionTimeout() throws Exception {
        FutureTask<Object> dial = dialInBackground();
        try {
            dial.get(20, TimeUnit.SECONDS);
            fail("the dial got in without a token");
        } catch (TimeoutException e) {
            fail("the dial still waits for the token supplier 20 s after its admission timeout of 300 ms");
        } catch (ExecutionException e) {
            Tier2Exception t = assertInstanceOf(Tier2Exception.class, e.getCause());
            assertEquals(Kind.UNREACHABLE, t.kind(), t.getMessage());
            assertTrue(t.getMessage().contains("bearer token supplier"), t.getMessage());
        }
        assertEquals(0, server.jobsAdmitted());
    }

    @Test
    void anInterruptEndsADialWaitingForTheSupplier() throws Exception {
        client.close();
        client = GrpcTier2Client.builder().target("127.0.0.1:" + server.port())
                .admissionTimeout(Duration.ofHours(1)).bearerToken(hangingVault).build();
        CountDownLatch asked = new CountDownLatch(1);
        FutureTask<Object> dial = new FutureTask<>(() -> {
            asked.countDown();
            return client.dial(new Job("r", new JobKey(0, 0), 1));
        });
        Thread dialer = Thread.ofVirtual().start(dial);
        assertTrue(asked.await(10, TimeUnit.SECONDS));
        dialer.interrupt();
        try {
            dial.get(20, TimeUnit.SECONDS);
            fail("the dial got in without a token");
        } catch (TimeoutException e) {
            fail("an interrupted dial still waits for the token supplier 20 s later");
        } catch (ExecutionException e) {
            assertInstanceOf(InterruptedException.class, e.getCause(), String.valueOf(e.getCause()));
        }
    }

    @Test
    void aSupplierThatNeverReturnsIsAskedOnceForAllTheDialsThatWaitForIt() throws Exception {
        int dials = 10;
        for (int i = 0; i < dials; i++) {
            Job job = new Job("r", new JobKey(i, 0), 1);
            Tier2Exception e = assertThrows(Tier2Exception.class, () -> client.dial(job));
            assertEquals(Kind.UNREACHABLE, e.kind(), e.getMessage());
            assertTrue(e.getMessage().contains("bearer token supplier"), e.getMessage());
        }
        assertEquals(1, asked.get(), "calls of the supplier in flight after " + dials + " dials");
        vaultAnswers.countDown(); // the vault is back: the next dial gets a token and runs its job
        Tier2Call call = client.dial(new Job("r", new JobKey(dials, 0), 1));
        try {
            call.await();
        } finally {
            call.close();
        }
        assertEquals(1, server.jobsAdmitted());
    }
}
