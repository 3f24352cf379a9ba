package dev.orderly.grpc;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Exception;
import dev.orderly.api.Tier2Exception.Kind;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Regression: a static fleet ({@code addresses(...)}) looked its host names up once, when the channel started. A name
 * that did not resolve then (a DNS blip as the tier1 starts, a StatefulSet pod whose record exists only once the pod
 * does) stayed an unresolved address for the life of the client: every dial to it was UNREACHABLE ("unresolved
 * address") for ever, although the name resolved a moment later, and a request waited until its deadline. The
 * resolver's {@code refresh()}, which gRPC calls when an address fails, did nothing. Here a name under
 * {@code .late.test} stands for such a record ({@link SlowNamesForTests}): unknown until told.
 */
@Timeout(120)
class AStaticAddressNotInDnsYetIsReachedOnceItIsTest {

    @Test
    void aDialGetsInOnceTheNameResolves() throws Exception {
        SlowNamesForTests.disappear();
        Tier2Server server = Tier2Server.builder().worker((job, work) -> { }).drainGrace(Duration.ZERO).build()
                .start();
        GrpcTier2Client client = GrpcTier2Client.builder()
                .addresses(List.of("tier2-0" + SlowNamesForTests.LATE_SUFFIX + ":" + server.port())).plaintext()
                .admissionTimeout(Duration.ofSeconds(5)).build();
        AtomicInteger attempt = new AtomicInteger();
        AtomicReference<String> last = new AtomicReference<>("none");
        try {
            Tier2Exception e = assertThrows(Tier2Exception.class, () -> {
                try (Tier2Call call = client.dial(new Job("r", new JobKey(0, 0), attempt.incrementAndGet()))) {
                    call.await();
                }
            });
            assertEquals(Kind.UNREACHABLE, e.kind(), e.getMessage());

            SlowNamesForTests.appear();
            try {
                // the JDK keeps a failed look-up for 10 s (networkaddress.cache.negative.ttl); gRPC's reconnect
                // back-off is seconds: a minute is several times both
                await().atMost(60, SECONDS).pollInterval(Duration.ofMillis(200)).until(() -> {
                    try (Tier2Call call = client.dial(new Job("r", new JobKey(0, 0), attempt.incrementAndGet()))) {
                        call.await();
                        return true;
                    } catch (Tier2Exception notYet) {
                        last.set(notYet.getMessage());
                        return false;
                    }
                });
            } catch (ConditionTimeoutException stuck) {
                throw new AssertionError("the name has resolved for 60 s, and every dial still fails: " + last.get());
            }
            assertTrue(server.jobsAdmitted() >= 1);
        } finally {
            SlowNamesForTests.disappear();
            client.close();
            server.close();
        }
    }
}
