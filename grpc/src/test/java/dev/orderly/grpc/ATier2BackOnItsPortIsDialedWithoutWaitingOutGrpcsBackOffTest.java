package dev.orderly.grpc;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Exception;
import dev.orderly.api.Tier2Exception.Kind;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * While a tier2 is down, every dial fails UNREACHABLE at once and gRPC waits out its connect back-off (1 s growing by
 * 1.6 to 120 s) before it tries the address again: a tier2 back on its port after a minute or two was not dialed for up
 * to two more minutes, every dial of the request failing meanwhile (measured: 17 s after an outage of 30 s). The
 * client now ends the back-off when a dial fails UNREACHABLE, at most once per admission timeout, so its connection
 * attempts follow the engine's redials.
 */
@Timeout(120)
class ATier2BackOnItsPortIsDialedWithoutWaitingOutGrpcsBackOffTest {

    private static final Duration ADMISSION_TIMEOUT = Duration.ofMillis(300);
    private static final Duration OUTAGE = Duration.ofSeconds(12);

    @Test
    void theClientTriesTheConnectionAgainAsTheEngineRedialsNotOnlyAtGrpcsBackOff() throws Exception {
        // The tier2 down: its port resets every connection and counts them (the client's connection attempts).
        try (ResettingPort down = new ResettingPort();
             GrpcTier2Client client = GrpcTier2Client.builder().addresses(List.of("127.0.0.1:" + down.port()))
                     .admissionTimeout(ADMISSION_TIMEOUT).build()) {
            int port = down.port();
            int dials = 0;
            long end = System.nanoTime() + OUTAGE.toNanos();
            while (System.nanoTime() < end) {
                try (Tier2Call call = client.dial(new Job("r", new JobKey(dials, 0), 1))) {
                    call.await();
                    throw new AssertionError("a dial got through to a port that resets every connection");
                } catch (Tier2Exception e) {
                    assertEquals(Kind.UNREACHABLE, e.kind(), e.getMessage());
                }
                dials++;
                TimeUnit.MILLISECONDS.sleep(100); // the engine's refusedDelay between redials (default 100 ms)
            }
            down.close(); // the tier2 comes back on its port below
            // gRPC's back-off alone allows at most 6 attempts in 12 s (at 0, 1, 2.6, 5.2, 9.3 s, each +-20%); one per
            // admission timeout of 300 ms is about 40.
            assertTrue(down.connects() >= 15, "while the tier2 was down for " + OUTAGE.toSeconds() + " s and the client"
                    + " redialed " + dials + " times, it tried to connect only " + down.connects() + " times: gRPC's"
                    + " back-off, so a tier2 back on its port is not dialed until it ends (up to 120 s)");

            try (Tier2Server back = Tier2Server.builder().port(port).maxConcurrentJobs(2).drainGrace(Duration.ZERO)
                    .worker((job, work) -> { }).build().start()) {
                await().atMost(Duration.ofSeconds(20)).until(() -> {
                    try (Tier2Call call = client.dial(new Job("r", new JobKey(0, 1), 1))) {
                        call.await();
                        return true;
                    } catch (Tier2Exception e) {
                        return false;
                    }
                });
            }
        }
    }
}
