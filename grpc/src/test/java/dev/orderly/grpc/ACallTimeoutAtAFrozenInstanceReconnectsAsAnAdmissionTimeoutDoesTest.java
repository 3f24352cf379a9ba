package dev.orderly.grpc;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Exception;
import dev.orderly.testing.net.TcpProxy;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A dial stuck at a frozen instance (a {@code SIGSTOP}'d process: its connection open, its health last SERVING,
 * nothing answered) rebuilds the client's connections, so that the instance drops out of {@code round_robin} at once.
 * It did so only when the dial ran out of its {@code admissionTimeout}: with a {@code callTimeout} shorter than that
 * (default admission timeout 10 s, a call timeout of a few seconds), every such dial ended at its deadline,
 * UNREACHABLE, and nothing was rebuilt, so round robin went on sending every other dial to the frozen instance until
 * keepalive gave up on its connection (15 s by default; never sooner).
 */
@Timeout(120)
class ACallTimeoutAtAFrozenInstanceReconnectsAsAnAdmissionTimeoutDoesTest {

    @Test
    void dialsStopGoingToAFrozenInstanceAfterTheFirstOneRanOutOfItsCallTimeout() throws Exception {
        Tier2Server healthy = Tier2Server.builder().drainGrace(Duration.ZERO).worker((job, work) -> { }).build()
                .start();
        Tier2Server freezing = Tier2Server.builder().drainGrace(Duration.ZERO).worker((job, work) -> { }).build()
                .start();
        TcpProxy link = TcpProxy.start(new InetSocketAddress("127.0.0.1", freezing.port()));
        // a first dial in a fresh JVM can take longer than the call timeout; it would spend the one rebuild allowed
        // per admission timeout before the instance froze
        try (GrpcTier2Client first = GrpcTier2Client.builder().addresses(List.of("127.0.0.1:" + healthy.port()))
                .build(); Tier2Call call = first.dial(new Job("jvm-warm-up", new JobKey(0, 0), 1))) {
            call.await();
        }
        GrpcTier2Client client = GrpcTier2Client.builder()
                .addresses(List.of("127.0.0.1:" + healthy.port(), link.hostPort()))
                .callTimeout(Duration.ofSeconds(2)) // under the admission timeout (10 s, the default)
                .build();
        try {
            // both connections up and watched
            await().atMost(20, SECONDS).until(() -> {
                try (Tier2Call call = client.dial(new Job("warm-up", new JobKey(0, 0), 1))) {
                    call.await();
                } catch (Tier2Exception e) {
                    // not up yet
                }
                return healthy.jobsAdmitted() > 0 && freezing.jobsAdmitted() > 0;
            });
            link.freeze();

            List<String> unreachable = new ArrayList<>();
            int dials = 8; // about 8 s of dials: inside the 10 s + 5 s keepalive takes
            for (int i = 1; i <= dials; i++) {
                try (Tier2Call call = client.dial(new Job("r", new JobKey(i, 0), 1))) {
                    call.await();
                } catch (Tier2Exception e) {
                    assertEquals(Tier2Exception.Kind.UNREACHABLE, e.kind(), e.getMessage());
                    unreachable.add(e.getMessage());
                }
            }
            assertTrue(unreachable.size() <= 2, unreachable.size() + " of " + dials + " dials went to the frozen"
                    + " instance one after another, each lost for its callTimeout: " + unreachable);
        } finally {
            link.thaw();
            client.close();
            link.close();
            healthy.close();
            freezing.close();
        }
    }
}
