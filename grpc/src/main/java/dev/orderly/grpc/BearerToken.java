package dev.orderly.grpc;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.ForwardingClientCall;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import java.util.function.Supplier;

/**
 * Sends {@code authorization: Bearer <token>} on every call, the token asked of the supplier each time, so a rotated
 * token is used from the next call on. A supplier that returns null or a blank token fails the call at the client
 * ({@code UNAUTHENTICATED}) rather than sending a call the tier2 will turn away; one that throws (a vault out of reach)
 * fails it {@code UNAVAILABLE}, naming what it threw: nothing was sent, so the job never ran and is dialed again.
 */
final class BearerToken implements ClientInterceptor {

    static final Metadata.Key<String> AUTHORIZATION =
            Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);
    static final String PREFIX = "Bearer ";

    private final Supplier<String> token;

    BearerToken(Supplier<String> token) {
        this.token = token;
    }

    @Override
    public <Q, R> ClientCall<Q, R> interceptCall(MethodDescriptor<Q, R> method, CallOptions options, Channel next) {
        return new ForwardingClientCall.SimpleForwardingClientCall<>(next.newCall(method, options)) {
            @Override
            public void start(Listener<R> listener, Metadata headers) {
                String t;
                try {
                    t = token.get();
                } catch (RuntimeException e) {
                    // Nothing was sent: the job never ran, as when the tier2 can not be reached, and is dialed again.
                    throw io.grpc.Status.UNAVAILABLE.withDescription("the bearer token supplier threw " + e)
                            .withCause(e).asRuntimeException();
                }
                if (t == null || t.isBlank()) {
                    throw io.grpc.Status.UNAUTHENTICATED.withDescription("the bearer token supplier gave no token")
                            .asRuntimeException();
                }
                headers.put(AUTHORIZATION, PREFIX + t.strip());
                super.start(listener, headers);
            }
        };
    }
}
