package dev.orderly.grpc;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Exception;
import dev.orderly.api.Tier2Exception.Kind;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Regression: "no target can make a dial block past admissionTimeout", but a static fleet ({@code addresses(...)})
 * looked its host names up in DNS on the thread of the dial that woke the channel (the first dial, and the first after
 * every reconnect): gRPC runs a name resolver's {@code start} on the thread that drains its synchronization context,
 * here the dialing one, and the admission timeout only starts once the call is started. With a DNS server slow to
 * answer, the dial was held for as long as the look-up took, however short its admission timeout. Here a name under
 * {@code .slow.test} stands for such a server ({@link SlowNamesForTests}): its look-up answers only when told.
 */
@Timeout(60)
class AStaticAddressThatResolvesSlowlyHoldsNoDialPastItsAdmissionTimeoutTest {

    @Test
    void aDialEndsAtItsAdmissionTimeoutWhileTheLookUpHangsAndGetsInOnceItAnswers() throws Exception {
        SlowNamesForTests.blockAgain();
        Tier2Server server = Tier2Server.builder().worker((job, work) -> { }).drainGrace(Duration.ZERO).build()
                .start();
        GrpcTier2Client client = GrpcTier2Client.builder()
                .addresses(List.of("tier2-a" + SlowNamesForTests.SUFFIX + ":" + server.port())).plaintext()
                .admissionTimeout(Duration.ofMillis(500)).build();
        try {
            CompletableFuture<Tier2Exception> first = CompletableFuture.supplyAsync(() -> {
                try (Tier2Call call = client.dial(new Job("r", new JobKey(0, 0), 1))) {
                    call.await();
                    return null;
                } catch (Tier2Exception e) {
                    return e;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            }, r -> Thread.ofVirtual().start(r));
            Tier2Exception e;
            try {
                e = first.get(20, SECONDS); // 40 times its admission timeout
            } catch (TimeoutException t) {
                fail("a dial with an admission timeout of 500 ms was still held after 20 s by a DNS look-up");
                return;
            } catch (ExecutionException x) {
                throw new AssertionError(x.getCause());
            }
            assertTrue(e != null, "the dial got in while its name was not resolved yet");
            assertEquals(Kind.UNREACHABLE, e.kind(), e.getMessage());

            SlowNamesForTests.answer();
            await().atMost(20, SECONDS).until(() -> {
                try (Tier2Call call = client.dial(new Job("r", new JobKey(0, 0), 2))) {
                    call.await();
                    return true;
                } catch (Tier2Exception notYet) {
                    return false;
                }
            });
            assertTrue(server.jobsAdmitted() >= 1);
        } finally {
            SlowNamesForTests.answer();
            client.close();
            server.close();
        }
    }
}
