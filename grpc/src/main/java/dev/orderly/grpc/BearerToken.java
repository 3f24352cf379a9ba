package dev.orderly.grpc;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.Deadline;
import io.grpc.ForwardingClientCall;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * Sends {@code authorization: Bearer <token>} on every call, the token asked of the supplier each time, so a rotated
 * token is used from the next call on. A supplier that returns null or a blank token fails the call at the client
 * ({@code UNAUTHENTICATED}) rather than sending a call the tier2 will turn away; one that throws (a vault out of reach)
 * fails it {@code UNAVAILABLE}, naming what it threw: nothing was sent, so the job never ran and is dialed again.
 *
 * <p>The supplier is asked on a thread of its own, and the dial waits for it at most its admission timeout, never
 * past the call's deadline (its {@code callTimeout}, which counts from the dial) ({@code UNAVAILABLE} past either, as
 * a supplier that throws) and only until it is interrupted: asked on the dialing thread,
 * a supplier that hung (a vault out of reach) held the dial past its admission timeout, and past an interrupt it did
 * not answer. At most one call of the supplier is in flight: a dial that comes while it is still being asked waits for
 * that answer rather than asking again, so a supplier that never returns holds one thread, not one per dial. When
 * the last dial waiting for it gives up, its thread is interrupted; it stays the call in flight until it returns.
 *
 * <h2>State (guarded by {@code lock})</h2>
 * {@code asking} is the supplier's call in flight, or null; it is cleared by that call's thread as it returns.
 * {@link Asking#waiting} counts the dials waiting for it. This class is thread-safe.
 */
final class BearerToken implements ClientInterceptor {

    static final Metadata.Key<String> AUTHORIZATION =
            Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);
    static final String PREFIX = "Bearer ";

    private final Supplier<String> token;
    private final Duration patience;
    private final Duration callTimeout;
    private final ReentrantLock lock = new ReentrantLock();

    // guarded by lock
    private Asking asking;
    // guarded by lock
    private boolean closed;

    /** One call of the supplier, on a virtual thread of its own, and the dials that wait for its answer. */
    private final class Asking implements Runnable {
        final FutureTask<String> answer = new FutureTask<>(token::get);
        final Thread thread = Thread.ofVirtual().name("bearer-token").unstarted(this);
        // guarded by lock
        int waiting;

        @Override
        public void run() {
            try {
                answer.run();
            } finally {
                lock.lock();
                try {
                    if (asking == this) {
                        asking = null; // the next dial asks afresh: a rotated token is used from then on
                    }
                } finally {
                    lock.unlock();
                }
            }
        }
    }

    /**
     * @param patience how long a dial waits for the supplier: the client's admission timeout
     * @param callTimeout the client's call timeout, or null: the call's deadline, which also bounds the wait
     */
    BearerToken(Supplier<String> token, Duration patience, Duration callTimeout) {
        this.token = token;
        this.patience = patience;
        this.callTimeout = callTimeout;
    }

    /**
     * Asks the supplier, or joins the call of it in flight, waiting at most {@code patience} and never past the
     * call's {@code deadline} (null: none); an interrupt ends the wait with the flag set.
     */
    private String ask(Deadline deadline) {
        Asking a;
        boolean first;
        lock.lock();
        try {
            if (closed) {
                throw Status.UNAVAILABLE.withDescription(CLOSED).asRuntimeException();
            }
            first = asking == null;
            if (first) {
                asking = new Asking();
            }
            a = asking;
            a.waiting++;
        } finally {
            lock.unlock();
        }
        if (first) {
            a.thread.start();
        }
        boolean answered = false;
        long left = deadline == null ? Long.MAX_VALUE : deadline.timeRemaining(TimeUnit.NANOSECONDS);
        boolean byDeadline = left < patience.toNanos();
        try {
            String t = a.answer.get(byDeadline ? left : patience.toNanos(), TimeUnit.NANOSECONDS);
            answered = true;
            return t;
        } catch (TimeoutException e) {
            // past the call's deadline the call could only fail as started too late, naming neither the supplier
            // nor the timeout, and look like a tier2 that answers nothing
            throw Status.UNAVAILABLE.withDescription("the bearer token supplier gave no token within " + (byDeadline
                    ? (callTimeout == null ? "the call's deadline"
                            : callTimeout.toMillis() + " ms (callTimeout, which counts from the dial)")
                    : patience.toMillis() + " ms (admissionTimeout)")).asRuntimeException();
        } catch (CancellationException e) {
            throw Status.UNAVAILABLE.withDescription(CLOSED).asRuntimeException();
        } catch (InterruptedException e) {
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
        } finally {
            leave(a, answered);
        }
    }

    private static final String CLOSED = "the client was closed while the bearer token supplier was asked";

    /**
     * The client is closing: every dial waiting for the supplier stops waiting now (its channel is shut down, so it is
     * told the client was closed), the supplier's thread is interrupted, and the supplier is asked no more.
     */
    void close() {
        Asking a;
        lock.lock();
        try {
            closed = true;
            a = asking;
        } finally {
            lock.unlock();
        }
        if (a != null) {
            a.answer.cancel(true);
        }
    }

    /** A dial stops waiting for {@code a}; the last one to give up on it interrupts its thread. */
    private void leave(Asking a, boolean answered) {
        boolean last;
        lock.lock();
        try {
            last = --a.waiting == 0;
        } finally {
            lock.unlock();
        }
        if (last && !answered && !a.answer.isDone()) {
            a.thread.interrupt(); // a supplier that answers interrupts stops; one that does not stays the only one
        }
    }

    @Override
    public <Q, R> ClientCall<Q, R> interceptCall(MethodDescriptor<Q, R> method, CallOptions options, Channel next) {
        return new ForwardingClientCall.SimpleForwardingClientCall<>(next.newCall(method, options)) {
            @Override
            public void start(Listener<R> listener, Metadata headers) {
                String t = ask(options.getDeadline());
                if (t == null || t.isBlank()) {
                    throw Status.UNAUTHENTICATED.withDescription("the bearer token supplier gave no token")
                            .asRuntimeException();
                }
                if (!Tier2Security.isPrintableAscii(t.strip())) { // it would go out with '?' in its place
                    throw Status.UNAUTHENTICATED.withDescription("the bearer token supplier gave a token that is"
                            + " not printable ASCII").asRuntimeException();
                }
                headers.put(AUTHORIZATION, PREFIX + t.strip());
                super.start(listener, headers);
            }
        };
    }
}
