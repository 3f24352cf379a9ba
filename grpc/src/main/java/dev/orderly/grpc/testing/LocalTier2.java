package dev.orderly.grpc.testing;

import dev.orderly.grpc.GrpcTier2Client;
import dev.orderly.grpc.JobWorker;
import dev.orderly.grpc.Tier2Server;
import java.io.IOException;
import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * A real tier2 running an embedder's {@link JobWorker}, and the real client that reaches it, on loopback in this
 * process: for a test of the worker through the whole transport (admission, the status mapping, cancellation, the
 * execution limit), the way {@code InProcessServerBuilder} and {@code GrpcCleanupRule} serve grpc-java's own tests.
 *
 * <pre>{@code
 * try (LocalTier2 tier2 = LocalTier2.start(Tier2Server.builder().maxConcurrentJobs(2).worker(myWorker)
 *         .outputs((requestId, segment, output) -> store.write(segment, output)))) {
 *     RequestResult result = engine.run(Request.of(plan, tier2.client(), store, client));
 *     await().atMost(Duration.ofSeconds(10)).until(() -> tier2.server().jobsHeld() == 0);
 * }
 * }</pre>
 *
 * <p>The server gives a job's slot back just after it has told the client the job's end, and hears of a job cancelled
 * at the request's end (a lower stage that a higher one covered) over the network: a slot may still be held for a
 * moment after {@code run} returns, so a test waits for the slots to come back rather than asserting it at once.
 *
 * <p>The server listens on {@code 127.0.0.1} at a free port, in plaintext, whatever host and port its builder had
 * (a builder with credentials or a {@code serverBuilder} of its own is refused); the client is
 * {@link GrpcTier2Client#builder()} with that one address, as a tier1 would dial a static fleet. {@link #close()}
 * closes the client, then drains the server and returns once it has stopped, so a test leaves no server, thread or
 * port behind. Instances are thread-safe; {@code close} is idempotent.
 */
public final class LocalTier2 implements AutoCloseable {

    private final Tier2Server server;
    private final GrpcTier2Client client;

    private LocalTier2(Tier2Server server, GrpcTier2Client client) {
        this.server = server;
        this.client = client;
    }

    /**
     * Starts the server {@code server} describes on loopback, and a client with default settings for it.
     *
     * @param server a server builder with at least a {@link Tier2Server.Builder#worker worker}
     * @throws IOException if no loopback port could be bound
     * @throws IllegalStateException if the builder has no worker, or has credentials or a
     *     {@link Tier2Server.Builder#serverBuilder serverBuilder} (a local pair is the server's own transport on
     *     loopback, in plaintext, as its client is)
     */
    public static LocalTier2 start(Tier2Server.Builder server) throws IOException {
        return start(server, UnaryOperator.identity());
    }

    /**
     * As {@link #start(Tier2Server.Builder)}, with the client's settings adjusted by {@code client} (a call timeout,
     * say); its address is set here, and must not be changed there.
     */
    public static LocalTier2 start(Tier2Server.Builder server, UnaryOperator<GrpcTier2Client.Builder> client)
            throws IOException {
        Objects.requireNonNull(server, "server");
        Objects.requireNonNull(client, "client");
        // plaintext() says what the pair is: the client below has no TLS, so a builder with credentials, or with a
        // serverBuilder of its own (TLS, another host or port), would give a server no dial could get through to;
        // build() refuses either together with plaintext().
        Tier2Server started = server.host("127.0.0.1").port(0).plaintext().build().start();
        try {
            GrpcTier2Client.Builder builder = client.apply(GrpcTier2Client.builder());
            return new LocalTier2(started, builder.addresses(List.of("127.0.0.1:" + started.port())).build());
        } catch (RuntimeException e) {
            started.close();
            throw e;
        }
    }

    /** The client to give the request: it dials this tier2 only. */
    public GrpcTier2Client client() {
        return client;
    }

    /** The server, for its counts ({@link Tier2Server#jobsHeld()}, {@link Tier2Server#jobsAdmitted()}, ...). */
    public Tier2Server server() {
        return server;
    }

    /**
     * Closes the client, then drains and stops the server (its running jobs get the server's drain grace) and returns
     * once it has stopped. An interrupt meanwhile stops the rest at once and is kept on the thread.
     */
    @Override
    public void close() {
        try {
            client.close();
        } finally {
            server.close();
        }
    }
}
