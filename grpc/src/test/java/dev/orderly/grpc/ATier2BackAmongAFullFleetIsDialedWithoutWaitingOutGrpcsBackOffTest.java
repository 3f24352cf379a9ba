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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Regression: the client ended gRPC's connect back-off only when a dial failed UNREACHABLE, as it does when every
 * instance is down or full (a full one says NOT_SERVING and is left out of the pick). A full tier2 with a waiting room
 * says SERVING while a seat is free, so with one tier2 down among such others every dial went to them, waited and was
 * REFUSED, and gRPC alone decided when to try the one down again (1 s growing by 1.6 to 120 s): a tier2 back on its
 * port after a minute or two stayed unused for up to two more minutes while the request's dials waited for a free
 * slot. A refused dial now ends the back-off too, at most once per admission timeout.
 */
@Timeout(120)
class ATier2BackAmongAFullFleetIsDialedWithoutWaitingOutGrpcsBackOffTest {

    private static final Duration ADMISSION_TIMEOUT = Duration.ofMillis(300);
    private static final Duration OUTAGE = Duration.ofSeconds(20);
    private static final Duration ROOM_WAIT = Duration.ofMillis(100);

    @Test
    void aRefusedDialTriesTheDownInstanceAgainNotOnlyAtGrpcsBackOff() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        // The fleet's one instance that answers is full: it holds one job, which runs until released.
        try (Tier2Server full = Tier2Server.builder().port(0).maxConcurrentJobs(1).drainGrace(Duration.ZERO)
                .waitingRoom(4, Duration.ofSeconds(5)).worker((job, work) -> release.await()).build().start();
             ResettingPort down = new ResettingPort()) {
            int port = down.port();
            try (GrpcTier2Client client = GrpcTier2Client.builder()
                    .addresses(List.of("127.0.0.1:" + full.port(), "127.0.0.1:" + port))
                    .admissionTimeout(ADMISSION_TIMEOUT).admissionWait(ROOM_WAIT).build()) {
                Tier2Call held = await().atMost(Duration.ofSeconds(20)).until(() -> {
                    try {
                        return client.dial(new Job("held", new JobKey(0, 0), 1));
                    } catch (Tier2Exception e) {
                        return null; // the channel still connecting
                    }
                }, c -> c != null);
                try (held) {
                    int dials = 0;
                    int refused = 0;
                    long end = System.nanoTime() + OUTAGE.toNanos();
                    while (System.nanoTime() < end) {
                        try (Tier2Call call = client.dial(new Job("r", new JobKey(dials, 0), 1))) {
                            throw new AssertionError("a dial got in while the one instance that answers was full");
                        } catch (Tier2Exception e) {
                            if (e.kind() == Kind.REFUSED) {
                                refused++;
                            } else {
                                assertEquals(Kind.UNREACHABLE, e.kind(), e.getMessage());
                            }
                        }
                        dials++;
                        TimeUnit.MILLISECONDS.sleep(100); // the engine's refusedDelay between redials (default 100 ms)
                    }
                    down.close(); // the tier2 comes back on its port below
                    assertTrue(refused > dials / 2, "the full instance refused only " + refused + " of " + dials);
                    // gRPC's back-off alone allows at most 7 attempts in 20 s (at 0, 1, 2.6, 5.2, 9.3, 16 s, each
                    // +-20%), and the dials made while the channel first connected a few more (they fail
                    // UNREACHABLE); one per admission timeout of 300 ms is about 60, each dial taking 200 ms.
                    assertTrue(down.connects() >= 25, "while one tier2 was down for " + OUTAGE.toSeconds() + " s and"
                            + " the other refused " + refused + " dials, the client tried to connect to the one down"
                            + " only " + down.connects() + " times: gRPC's back-off, so it is not dialed until that"
                            + " ends (up to 120 s)");

                    try (Tier2Server back = Tier2Server.builder().port(port).maxConcurrentJobs(2)
                            .drainGrace(Duration.ZERO).worker((job, work) -> { }).build().start()) {
                        await().atMost(Duration.ofSeconds(20)).until(() -> {
                            try (Tier2Call call = client.dial(new Job("r", new JobKey(0, 1), 1))) {
                                call.await();
                                return true;
                            } catch (Tier2Exception e) {
                                return false;
                            }
                        });
                    }
                } finally {
                    release.countDown();
                }
            }
        }
    }
}
