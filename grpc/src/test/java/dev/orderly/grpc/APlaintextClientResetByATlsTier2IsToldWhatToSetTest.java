package dev.orderly.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Tier2Exception;
import dev.orderly.api.Tier2Exception.Kind;
import io.grpc.Status;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/**
 * Regression: a tier2 that requires TLS, dialed by a client without it, closes the connection on the client's first
 * bytes, and the client hears either "Network closed for unknown reason" or, when the close came as a reset, "io
 * exception (because NativeIoException: recvAddress(..) failed with error(-104): Connection reset by peer)". Only the
 * first said that the client speaks plaintext and what to give; the second, which the same misconfiguration gives in
 * some runs (APlaintextClientAtATlsTier2IsToldWhatToSetTest failed so in a CI run), said nothing of it.
 */
class APlaintextClientResetByATlsTier2IsToldWhatToSetTest {

    private static final String WHAT = "r segment 0 stage 0 attempt 1 (target 127.0.0.1:9000)";

    /** What gRPC's Netty transport reports for a connection the peer reset: an IOException under its status. */
    private static Status resetByPeer() {
        return Status.UNAVAILABLE.withDescription("io exception")
                .withCause(new IOException("recvAddress(..) failed with error(-104): Connection reset by peer"));
    }

    @Test
    void aPlaintextClientResetBeforeAdmittedIsToldToGiveCredentials() {
        Tier2Exception e = StatusMapping.toException(resetByPeer(), false, WHAT, true);
        assertEquals(Kind.UNREACHABLE, e.kind(), e.getMessage());
        assertTrue(e.getMessage().contains("speaks plaintext") && e.getMessage().contains("credentials("),
                "says neither that the client speaks plaintext nor what to give: " + e.getMessage());
    }

    @Test
    void aTlsClientOrAnAdmittedJobResetIsNotToldItSpeaksPlaintext() {
        assertFalse(StatusMapping.toException(resetByPeer(), false, WHAT, false).getMessage()
                .contains("speaks plaintext"));
        Tier2Exception admitted = StatusMapping.toException(resetByPeer(), true, WHAT, true);
        assertEquals(Kind.RETRYABLE, admitted.kind(), admitted.getMessage());
        assertFalse(admitted.getMessage().contains("speaks plaintext"), admitted.getMessage());
    }
}
