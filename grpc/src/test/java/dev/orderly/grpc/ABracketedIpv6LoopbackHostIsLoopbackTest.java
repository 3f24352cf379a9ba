package dev.orderly.grpc;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Regression: a server host written as URLs write an IPv6 literal, {@code [::1]} ({@code Tier2Main --host=[::1]},
 * {@code Tier2Server.Builder.host("[::1]")}), binds the loopback interface ({@code InetAddress} takes the brackets),
 * but was refused as "{@code host [::1] is not loopback: give credentials(…) or call plaintext()}" ("--host=[::1] is
 * not loopback: give --tls-cert and --tls-key, or --insecure-plaintext" from the launcher), a message that is false;
 * the client already took the target {@code [::1]:9000} as loopback. Nothing is bound here: build() alone decides.
 */
@Timeout(30)
class ABracketedIpv6LoopbackHostIsLoopbackTest {

    @Test
    void aServerOnBracketedIpv6LoopbackNeedsNoPlaintextOptIn() {
        // Before the fix: IllegalStateException "host [::1] is not loopback: give credentials(…) or call plaintext()"
        Tier2Server server = Tier2Server.builder().host("[::1]").worker((job, work) -> { }).build();
        server.close(); // never started: the close only shuts down what build() made
        assertTrue(Tier2Security.isLoopbackHost("[::1]"), "what Tier2Main asks before it refuses --host=[::1]");
    }
}
