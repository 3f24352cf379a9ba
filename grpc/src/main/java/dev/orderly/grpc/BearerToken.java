package dev.orderly.grpc;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.ForwardingClientCall;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * Sends {@code authorization: Bearer <token>} on every call, the token asked of the supplier each time, so a rotated
 * token is used from the next call on. A supplier that returns null or a blank token fails the call at the client
 * ({@code UNAUTHENTICATED}) rather than sending a call the tier2 will turn away; one that throws (a vault out of reach)
 * fails it {@code UNAVAILABLE}, naming what it threw: nothing was sent, so the job never ran and is dialed again.
 *
 * <p>The supplier is asked on a thread of its own, and the dial waits for it at most its admission timeout
 * ({@code UNAVAILABLE} past it, as a supplier that throws) and only until it is interrupted: asked on the dialing thread,
 * a supplier that hung (a vault out of reach) held the dial past its admission timeout, and past an interrupt it did
 * not answer. This class is thread-safe.
 */
final class BearerToken implements ClientInterceptor {

    static final Metadata.Key<String> AUTHORIZATION =
            Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);
    static final String PREFIX = "Bearer ";

    private final Supplier<String> token;
    private final Duration patience;

    /** @param patience how long a dial waits for the supplier: the client's admission timeout */
    BearerToken(Supplier<String> token, Duration patience) {
        this.token = token;
        this.patience = patience;
    }

    /** Asks the supplier, waiting at most {@code patience}; an interrupt ends the wait with the flag set. */
    private String ask() {
        FutureTask<String> asked = new FutureTask<>(token::get);
        Thread.ofVirtual().name("bearer-token").start(asked);
        try {
            return asked.get(patience.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            asked.cancel(true);
            throw Status.UNAVAILABLE.withDescription("the bearer token supplier gave no token within " + patience
                    + " (admissionTimeout)").asRuntimeException();
        } catch (InterruptedException e) {
            asked.cancel(true);
            Thread.currentThread().interrupt(); // the dial sees it and throws InterruptedException
            throw Status.CANCELLED.withDescription("dial interrupted while the bearer token supplier was asked")
                    .asRuntimeException();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                // Nothing was sent: the job never ran, as when the tier2 can not be reached, and is dialed again.
                throw Status.UNAVAILABLE.withDescription("the bearer token supplier threw " + r).withCause(r)
                        .asRuntimeException();
            }
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException(e.getCause()); // a Supplier throws no checked exception
        }
    }

    @Override
    public <Q, R> ClientCall<Q, R> interceptCall(MethodDescriptor<Q, R> method, CallOptions options, Channel next) {
        return new ForwardingClientCall.SimpleForwardingClientCall<>(next.newCall(method, options)) {
            @Override
            public void start(Listener<R> listener, Metadata headers) {
                String t = ask();
                if (t == null || t.isBlank()) {
                    throw Status.UNAUTHENTICATED.withDescription("the bearer token supplier gave no token")
                            .asRuntimeException();
                }
                headers.put(AUTHORIZATION, PREFIX + t.strip());
                super.start(listener, headers);
            }
        };
    }
}
