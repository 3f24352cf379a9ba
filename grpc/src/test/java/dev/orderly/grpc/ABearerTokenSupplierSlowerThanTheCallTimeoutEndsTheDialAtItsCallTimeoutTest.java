package dev.orderly.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Tier2Exception;
import dev.orderly.api.Tier2Exception.Kind;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A client's {@code callTimeout} is "the longest a call may run, admission included", and it counts from the dial, so
 * the time its bearer token supplier takes is part of it. The bug: with a {@code callTimeout} under the
 * {@code admissionTimeout} (a call timeout of a few seconds, the default admission timeout of 10 s), a dial waited
 * for a slow supplier up to its admission timeout, long past its call timeout; a supplier that answered after the call
 * timeout got the call started anyway, which gRPC failed at once with its own "ClientCall started after CallOptions
 * deadline was exceeded", naming neither the supplier nor {@code callTimeout}; and as a deadline that passed before
 * {@code Admitted}, it rebuilt every connection of the client, as if a tier2 had frozen.
 */
@Timeout(60)
class ABearerTokenSupplierSlowerThanTheCallTimeoutEndsTheDialAtItsCallTimeoutTest {

    private final CountDownLatch vaultAnswers = new CountDownLatch(1);
    private Tier2Server server;
    private GrpcTier2Client client;

    private void start(Supplier<String> token) throws Exception {
        server = Tier2Server.builder().worker((job, work) -> { }).bearerTokens(List.of("t"))
                .drainGrace(Duration.ZERO).build().start();
        client = GrpcTier2Client.builder().target("127.0.0.1:" + server.port())
                .callTimeout(Duration.ofMillis(200))
                .admissionTimeout(Duration.ofSeconds(30))
                .bearerToken(token).build();
    }

    @AfterEach
    void stop() {
        vaultAnswers.countDown();
        if (client != null) {
            client.close();
        }
        if (server != null) {
            server.close();
        }
    }

    private Tier2Exception dialFails(Duration within) throws Exception {
        FutureTask<Object> dial = new FutureTask<>(() -> client.dial(new Job("r", new JobKey(0, 0), 1)));
        Thread.ofVirtual().start(dial);
        try {
            dial.get(within.toMillis(), TimeUnit.MILLISECONDS);
            fail("the dial got in although its token came after its callTimeout");
            return null;
        } catch (TimeoutException e) {
            fail("the dial still waits for the bearer token supplier " + within.toSeconds()
                    + " s after its callTimeout of 200 ms");
            return null;
        } catch (ExecutionException e) {
            return assertInstanceOf(Tier2Exception.class, e.getCause());
        }
    }

    @Test
    void aSupplierThatDoesNotAnswerEndsTheDialAtItsCallTimeoutNotItsAdmissionTimeout() throws Exception {
        start(() -> {
            try {
                vaultAnswers.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return "t";
        });
        Tier2Exception e = dialFails(Duration.ofSeconds(10));
        assertEquals(Kind.UNREACHABLE, e.kind(), e.getMessage());
        assertTrue(e.getMessage().contains("bearer token supplier") && e.getMessage().contains("callTimeout"),
                e.getMessage());
        assertEquals(0, server.jobsAdmitted());
    }

    @Test
    void aSupplierThatAnswersAfterTheCallTimeoutIsNamedAsWhatTookTheTime() throws Exception {
        start(() -> {
            try {
                Thread.sleep(1_000); // a vault that takes a second: five times the call timeout
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return "t";
        });
        Tier2Exception e = dialFails(Duration.ofSeconds(20));
        assertEquals(Kind.UNREACHABLE, e.kind(), e.getMessage());
        assertTrue(e.getMessage().contains("bearer token supplier") && e.getMessage().contains("callTimeout"),
                e.getMessage());
    }
}
