package dev.orderly.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.grpc.CallCredentials;
import io.grpc.ChannelCredentials;
import io.grpc.ChoiceChannelCredentials;
import io.grpc.CompositeChannelCredentials;
import io.grpc.InsecureChannelCredentials;
import io.grpc.Metadata;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Timeout;

/**
 * A bearer token is refused at {@code build()} over plaintext off loopback, {@code InsecureChannelCredentials}
 * included. The check looked only at the outermost credentials: plaintext wrapped in grpc-java's own
 * {@code CompositeChannelCredentials} (plaintext plus call credentials of the embedder's, a tracing header say) or
 * {@code ChoiceChannelCredentials} (whose first choice, plaintext, is the one the channel uses) passed it, and every
 * call sent the token unencrypted across the network. Nothing connects here: the channel is built, never dialed.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ABearerTokenOverWrappedPlaintextCredentialsIsRefusedTest {

    /** Call credentials of the embedder's own that add a header; no secret. */
    private static final CallCredentials TRACING = new CallCredentials() {
        @Override
        public void applyRequestMetadata(RequestInfo info, Executor executor, MetadataApplier applier) {
            Metadata m = new Metadata();
            m.put(Metadata.Key.of("x-trace", Metadata.ASCII_STRING_MARSHALLER), "on");
            applier.apply(m);
        }
    };

    @ParameterizedTest
    @ValueSource(strings = {"composite", "choice"})
    void plaintextWrappedInOtherCredentialsIsNoWayForATokenOffLoopback(String wrapping) {
        ChannelCredentials plaintext = wrapping.equals("composite")
                ? CompositeChannelCredentials.create(InsecureChannelCredentials.create(), TRACING)
                : ChoiceChannelCredentials.create(InsecureChannelCredentials.create());
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> GrpcTier2Client.builder().target("dns:///tier2.example:9000").credentials(plaintext)
                        .bearerToken(() -> "s3cret").build().close(),
                "a client that sends its token in the clear was built");
        assertEquals("a bearer token would cross the network in the clear to target dns:///tier2.example:9000:"
                + " give credentials(…) for TLS", e.getMessage());
    }
}
