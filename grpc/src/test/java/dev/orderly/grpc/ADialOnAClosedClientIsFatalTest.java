package dev.orderly.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Tier2Exception;
import dev.orderly.api.Tier2Exception.Kind;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A {@link GrpcTier2Client} that was closed (its channel shut down) can reach no tier2 ever again: a dial through it
 * must fail the request at once (FATAL, saying the client is closed), as any misconfiguration no retry can fix.
 *
 * <p>The bug: the dial was UNREACHABLE ("UNAVAILABLE Channel shutdownNow invoked"), which is free and never counted, so
 * a request still running on a client its application had closed (a shutdown in the wrong order) dialed again and
 * again until its deadline, or for ever without one, logging only the stall warning.
 */
@Timeout(30)
class ADialOnAClosedClientIsFatalTest {

    @Test
    void aDialThroughAClosedClientIsFatalAndSaysSo() throws Exception {
        Tier2Server server = Tier2Server.builder().worker((job, work) -> { }).drainGrace(Duration.ZERO).build()
                .start();
        try {
            GrpcTier2Client client = GrpcTier2Client.builder().target("127.0.0.1:" + server.port()).build();
            client.dial(new Job("r", new JobKey(0, 0), 1)).close(); // it worked while open
            client.close();

            Tier2Exception e = assertThrows(Tier2Exception.class,
                    () -> client.dial(new Job("r", new JobKey(1, 0), 1)));
            assertEquals(Kind.FATAL, e.kind(), e.getMessage());
            assertTrue(e.getMessage().contains("closed"), e.getMessage());
        } finally {
            server.close();
        }
    }
}
