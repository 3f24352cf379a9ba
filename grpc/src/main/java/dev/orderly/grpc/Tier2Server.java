package dev.orderly.grpc;

import io.grpc.Server;
import io.grpc.ServerBuilder;
import io.grpc.ServerCredentials;
import io.grpc.ServerInterceptors;
import io.grpc.ServerServiceDefinition;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.protobuf.services.HealthStatusManager;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real tier2: serves {@code orderly.tier2.v1.Tier2/ProcessRange} and the standard {@code grpc.health.v1} service.
 *
 * <p>At its limit of {@code maxConcurrentJobs} it refuses a call at once with {@code RESOURCE_EXHAUSTED}
 * "{@value Tier2Protocol#OVERLOADED}" and runs nothing; by default there is no queue on the server, the tier1's
 * launch queue is the queue. With a {@linkplain Builder#waitingRoom waiting room} it holds the dials that ask to
 * wait and hands each freed slot at once to the best of them (docs/guide/waiting-room.md). Otherwise it sends
 * {@code Admitted} and runs the job ({@link ServerJob}); each admitted job gives its slot back exactly once, when its
 * worker returns, whether it completed, failed, was cancelled by the client, the client went away, or it ran past the
 * execution limit (its call ends at the limit; the slot stays held, visibly in {@link #jobsHeld()}, until a worker
 * that ignores the interrupt returns).
 *
 * <p>Health: the load status (service {@code orderly.tier2.v1.Tier2}) is NOT_SERVING while the instance is full (and
 * its room too, if it has one) or draining, so health-checking clients send their calls elsewhere; the overall status
 * (service {@code ""}, for liveness and readiness probes) is SERVING from start until the drain begins. The health
 * service needs no token.
 *
 * <p>Security: TLS or mTLS with {@link Builder#credentials}; plaintext on a host that is not loopback only with
 * {@link Builder#plaintext()}; bearer tokens with {@link Builder#bearerTokens}. Abuse limits: at most
 * {@code 4 × maxConcurrentJobs + 16} concurrent calls per connection (by default, plus the room's seats), messages up to
 * {@link Builder#maxMessageSize}, and a malformed request is {@code INVALID_ARGUMENT} with one WARN line.
 *
 * <p>A client that vanishes without a reset (its host frozen, a link that drops every packet) is found by the server's
 * own pings ({@link Builder#keepAlive}): the calls on its connection are cancelled, their jobs stopped and their slots
 * freed within 15 s of the last byte heard from it, by default.
 *
 * <p>{@link #close()} drains: it stops admitting (new calls get {@code UNAVAILABLE}), lets running jobs finish within
 * the grace period, then stops the rest (their clients see {@code UNAVAILABLE} after {@code Admitted}: RETRYABLE).
 *
 * <p>This class is thread-safe.
 */
public final class Tier2Server implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Tier2Server.class);
    /** gRPC's own default for the largest message, on the tier2 and the client alike: 4 MiB. */
    static final int DEFAULT_MAX_MESSAGE_SIZE = 4 * 1024 * 1024;

    /** The longest duration the server can count in nanoseconds. */
    private static final Duration LONGEST = Duration.ofNanos(Long.MAX_VALUE);

    /** {@link Builder#maxConnectionAge}'s default: new instances behind a name are dialed within about this. */
    static final Duration DEFAULT_MAX_CONNECTION_AGE = Duration.ofMinutes(2);

    private final int maxConcurrentJobs;
    private final Duration drainGrace;
    private final HealthStatusManager health = new HealthStatusManager();
    private final AdmissionLimit slots;
    private final RunningJobs running = new RunningJobs();
    /**
     * Runs gRPC's callbacks of the calls, each on a virtual thread of its own. Never shut down: gRPC may still hand
     * it a call's callback after the server has terminated (the in-process transport runs a server's callback on
     * whichever thread holds the call's queue, a client's that reads its {@code Admitted} late, say), and an executor
     * that refused it threw into that thread: the client's call ended CANCELLED "Failed to read message." rather
     * than with the server's own status. A callback that late finds its call ended and returns at once.
     */
    private final ThreadFactory callbacks = Thread.ofVirtual().name("tier2-grpc-", 0).factory();
    private final ScheduledExecutorService timer =
            Executors.newSingleThreadScheduledExecutor(Thread.ofVirtual().name("tier2-execution-limit").factory());
    private final AtomicBoolean closed = new AtomicBoolean();
    private final CountDownLatch terminated = new CountDownLatch(1);
    private final Server server;
    /** Builds the health-only listener, anew for each start(): null unless Builder.healthPort was given. */
    private final ServerBuilder<?> healthServers;
    private volatile Server healthServer; // the one started; null until then, or without a health port

    private Tier2Server(Builder b) {
        this.maxConcurrentJobs = b.maxConcurrentJobs;
        this.drainGrace = b.drainGrace;
        this.slots = new AdmissionLimit(b.maxConcurrentJobs, b.roomCapacity, b.roomMaxWait, health,
                b.loadStatusDelay, timer);
        ServerServiceDefinition tier2 = new Tier2Service(b.worker, b.outputs, slots, running, timer,
                b.executionTimeout, b.instanceName, b.maxMessageSize).definition();
        if (b.bearerTokens != null) {
            tier2 = ServerInterceptors.intercept(tier2, new TokenCheck(b.bearerTokens));
        }
        ServerBuilder<?> sb = b.serverBuilder;
        if (sb == null) {
            InetSocketAddress address = new InetSocketAddress(b.host, b.port);
            sb = b.credentials != null ? NettyServerBuilder.forAddress(address, b.credentials)
                    : NettyServerBuilder.forAddress(address);
        }
        // in a long: a room "without bound" (Integer.MAX_VALUE seats) must not wrap the int
        int callsPerConnection = b.maxCallsPerConnection > 0 ? b.maxCallsPerConnection
                : (int) Math.min(Integer.MAX_VALUE, 4L * b.maxConcurrentJobs + 16 + b.roomCapacity);
        if (sb instanceof NettyServerBuilder netty) {
            netty.permitKeepAliveTime(b.permitKeepAlive.toNanos(), TimeUnit.NANOSECONDS)
                    .permitKeepAliveWithoutCalls(true)
                    // gRPC's own default is a ping after 2 hours: a job whose tier1 froze held its slot that long
                    .keepAliveTime(b.keepAliveTime.toNanos(), TimeUnit.NANOSECONDS)
                    .keepAliveTimeout(b.keepAliveTimeout.toNanos(), TimeUnit.NANOSECONDS)
                    // GOAWAY at this age, with gRPC's default grace, which is infinite: no call is ever cut. The
                    // client reconnects and its load balancer asks the resolver again; gRPC's DNS resolver has no
                    // timer, so without it a tier1 whose connections stayed healthy never dialed a tier2 added since.
                    .maxConnectionAge(b.maxConnectionAge.toNanos(), TimeUnit.NANOSECONDS)
                    .maxConcurrentCallsPerConnection(callsPerConnection);
        }
        this.server = sb.executor(task -> callbacks.newThread(task).start())
                .maxInboundMessageSize(b.maxMessageSize)
                .addService(tier2)
                .addService(health.getHealthService())
                .build();
        this.healthServers = b.healthPort == null ? null
                : NettyServerBuilder.forAddress(new InetSocketAddress(b.host, b.healthPort))
                        // Plaintext, no token, no client certificate: anyone who reaches the host may open it, so
                        // it keeps the limits of the tier2's own port (it held any number of Watch streams open).
                        .maxConcurrentCallsPerConnection(callsPerConnection)
                        .maxInboundMessageSize(b.maxMessageSize)
                        .addService(health.getHealthService());
    }

    /** A builder; {@link Builder#worker} is required. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Binds and starts serving.
     *
     * @return this server
     * @throws IOException if it can not bind (its port or its health port); nothing is left listening, and the
     *     server may be started again
     * @throws IllegalStateException if it was started already, or closed
     */
    public Tier2Server start() throws IOException {
        // A gRPC server that failed to bind may be started again, one that was shut down never: the health listener
        // is a new one each try and binds first, so the main one is never started and shut down for a taken health
        // port (a retry once the port was free then threw "Already started" with nothing listening).
        if (healthServer != null) {
            // started twice: said as the main listener says it, not as the taken health port it would meet
            throw new IllegalStateException("Already started");
        }
        Server healthNow = healthServers == null ? null : healthServers.build();
        if (healthNow != null) {
            try {
                healthNow.start();
            } catch (IOException e) {
                throw new IOException("can not bind the health port: " + e.getMessage(), e);
            }
        }
        try {
            server.start();
        } catch (IOException | RuntimeException e) {
            if (healthNow != null) {
                healthNow.shutdownNow();
            }
            throw e;
        }
        healthServer = healthNow;
        if (healthNow != null && closed.get()) {
            // A close() that ran while the listeners started read no health listener (it is recorded only now), and
            // shut the main one alone: this one would listen on for the life of the JVM. Both sides write, then read,
            // volatiles: either that close() saw it, or this sees the close.
            healthNow.shutdownNow();
            throw new IllegalStateException("Shutting down");
        }
        LOG.info("tier2 serving on port {} with {} slots", server.getPort(), maxConcurrentJobs);
        return this;
    }

    /** The bound port (after {@link #start()}); -1 for a server that has none, such as an in-process one. */
    public int port() {
        return server.getPort();
    }

    /** The bound port of the health-only listener (after {@link #start()}); -1 when there is none. */
    public int healthPort() {
        Server h = healthServer;
        return h == null ? -1 : h.getPort();
    }

    /** The slots held now: jobs admitted whose thread has not ended. */
    public int jobsHeld() {
        return slots.held();
    }

    /** Jobs admitted so far: each started; a waiter whose client went away as it was handed a slot is not one. */
    public long jobsAdmitted() {
        return slots.counts()[0];
    }

    /** Calls refused so far (full, their wait ended, a better dial took their seat, or draining). */
    public long callsRefused() {
        return slots.counts()[1];
    }

    /** Calls waiting in the room now for a slot (always 0 without a {@link Builder#waitingRoom waiting room}). */
    public int callsWaiting() {
        return slots.waiting();
    }

    /**
     * Drains and stops: no new job is admitted, running jobs get the grace period to finish, then the rest are stopped
     * and the server shuts down. Idempotent; waits for all of it, also when another thread's close() does the
     * draining. Restores the interrupt flag if interrupted: after stopping everything at once, or, while another
     * close() drains, after returning without waiting for the end. It takes at most the grace period and 9 s more: 5 s
     * for the stopped jobs to end, 2 s for the listener to shut down, 2 s more once it is forced.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            // Another close() drains (a SIGTERM hook, say): returning now would let the caller close what the jobs
            // still use. An interrupt ends this wait only; the drain goes on.
            try {
                terminated.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return;
        }
        boolean interrupted = false;
        // Counted down whatever happens on the way: a second close() and awaitTermination() wait for it.
        try {
            slots.drain();
            try {
                if (!slots.awaitIdle(drainGrace)) {
                    LOG.info("tier2 drain: {} jobs still running after {}, stopping them", slots.held(),
                            drainGrace);
                }
            } catch (InterruptedException e) {
                interrupted = true;
            }
            running.stopAll();
            try {
                slots.awaitIdle(Duration.ofSeconds(5));
            } catch (InterruptedException e) {
                interrupted = true;
            }
            health.enterTerminalState();
            server.shutdown();
            try {
                if (!server.awaitTermination(2, TimeUnit.SECONDS)) {
                    server.shutdownNow();
                    server.awaitTermination(2, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                server.shutdownNow();
                interrupted = true;
            }
            Server h = healthServer;
            if (h != null) {
                h.shutdownNow();
            }
            timer.shutdownNow();
        } finally {
            terminated.countDown();
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Waits until this server has drained and stopped: until a {@link #close()}, from any thread (a shutdown hook on
     * SIGTERM, say), has returned. What a {@code main} calls to stay up while the server serves.
     *
     * @throws InterruptedException if interrupted while waiting (the server keeps running)
     */
    public void awaitTermination() throws InterruptedException {
        terminated.await();
    }

    /**
     * Waits at most {@code timeout} for this server to drain and stop, as {@link #awaitTermination()}.
     *
     * <p>A timeout too long to count in nanoseconds (about 292 years, {@code ChronoUnit.FOREVER}'s say) waits that long.
     *
     * @return true if it has stopped, false if the time ran out first
     * @throws InterruptedException if interrupted while waiting (the server keeps running)
     */
    public boolean awaitTermination(Duration timeout) throws InterruptedException {
        // convert saturates where toNanos() threw ArithmeticException
        return terminated.await(TimeUnit.NANOSECONDS.convert(Objects.requireNonNull(timeout, "timeout")),
                TimeUnit.NANOSECONDS);
    }

    /** As {@link #awaitTermination(Duration)}, in the units of {@link java.util.concurrent.ExecutorService}'s. */
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        return terminated.await(timeout, unit);
    }

    /** True once {@link #close()} has finished: drained and stopped. */
    public boolean isTerminated() {
        return terminated.getCount() == 0;
    }

    /** Builds a {@link Tier2Server}. Not thread-safe. */
    public static final class Builder {
        private String host = "127.0.0.1";
        private int port;
        private int maxConcurrentJobs = 4;
        private JobWorker worker;
        private JobOutputs outputs;
        private Duration executionTimeout;
        private Duration drainGrace = Duration.ofSeconds(10);
        private String instanceName = "tier2";
        private ServerBuilder<?> serverBuilder;
        private Integer healthPort;
        private int maxMessageSize = DEFAULT_MAX_MESSAGE_SIZE;
        private Duration permitKeepAlive = Duration.ofSeconds(5);
        private Duration keepAliveTime = Duration.ofSeconds(10);
        private Duration keepAliveTimeout = Duration.ofSeconds(5);
        private Duration maxConnectionAge = DEFAULT_MAX_CONNECTION_AGE;
        private int maxCallsPerConnection;
        private Duration loadStatusDelay = Duration.ofMillis(50);
        private ServerCredentials credentials;
        private boolean plaintext;
        private List<String> bearerTokens;
        private int roomCapacity;
        private Duration roomMaxWait = Duration.ZERO;

        private Builder() {
        }

        /**
         * A waiting room of {@code capacity} seats: when every slot is taken, a dial that asks to wait (its request's
         * {@code priority.max_wait_ms > 0}) is held, holding no slot, for at most {@code min(max_wait_ms, maxWait)};
         * a freed slot goes at once to a waiter (the waiting tenant with the fewest jobs running here, round robin
         * among equals; then its request's lowest segment), a waiter whose wait ends is refused as a full tier2
         * refuses, and when every seat is taken a better-ranked dial takes the worst waiter's seat (that one is
         * refused). A dial that does not ask to wait (an older client) is refused at once, as without a room.
         * Default: no room.
         *
         * @param capacity seats, {@code >= 1}
         * @param maxWait the longest any dial waits, {@code > 0}
         */
        public Builder waitingRoom(int capacity, Duration maxWait) {
            if (capacity < 1) {
                throw new IllegalArgumentException("waitingRoom capacity must be >= 1, was " + capacity);
            }
            Objects.requireNonNull(maxWait, "waitingRoom maxWait");
            if (!maxWait.isPositive()) {
                throw new IllegalArgumentException("waitingRoom maxWait must be > 0, was " + maxWait);
            }
            representable("waitingRoom maxWait", maxWait);
            this.roomCapacity = capacity;
            this.roomMaxWait = maxWait;
            return this;
        }

        /**
         * Also serve the {@code grpc.health.v1} service alone, in plaintext, on this port of the same host (0 picks a
         * free one, see {@link Tier2Server#healthPort()}): for probes that speak neither TLS nor mTLS, such as
         * Kubernetes' built-in gRPC probes. It serves health only, read-only. Default: none.
         */
        public Builder healthPort(int port) {
            if (port < 0 || port > 65_535) {
                throw new IllegalArgumentException("healthPort must be between 0 and 65535, was " + port);
            }
            this.healthPort = port;
            return this;
        }

        /**
         * The address to listen on; default {@code 127.0.0.1}. Any other (e.g. {@code 0.0.0.0}, every interface)
         * needs {@link #credentials} or {@link #plaintext()}.
         */
        public Builder host(String host) {
            this.host = Objects.requireNonNull(host, "host");
            return this;
        }

        /** The port; 0 (the default) picks a free one, see {@link Tier2Server#port()}. */
        public Builder port(int port) {
            if (port < 0 || port > 65_535) {
                throw new IllegalArgumentException("port must be between 0 and 65535, was " + port);
            }
            this.port = port;
            return this;
        }

        /** Jobs run at once before the server refuses; default 4. */
        public Builder maxConcurrentJobs(int max) {
            if (max < 1) {
                throw new IllegalArgumentException("maxConcurrentJobs must be >= 1, was " + max);
            }
            this.maxConcurrentJobs = max;
            return this;
        }

        /** What the server does for one job. Required. */
        public Builder worker(JobWorker worker) {
            this.worker = Objects.requireNonNull(worker, "worker");
            return this;
        }

        /**
         * Where {@link JobContext#writeOutput} writes the jobs' outputs. Optional: without it a worker writes its
         * output itself, and {@code writeOutput} throws {@link IllegalStateException}.
         */
        public Builder outputs(JobOutputs outputs) {
            this.outputs = Objects.requireNonNull(outputs, "outputs");
            return this;
        }

        /**
         * The longest one job may run; past it the call ends with {@code DEADLINE_EXCEEDED} at once, even if the
         * worker ignores its interrupt (its slot stays held until it returns). Default: no limit.
         */
        public Builder executionTimeout(Duration timeout) {
            this.executionTimeout = positive("executionTimeout", timeout);
            return this;
        }

        /** How long {@link Tier2Server#close()} lets running jobs finish before it stops them; default 10 s. */
        public Builder drainGrace(Duration grace) {
            Objects.requireNonNull(grace, "drainGrace");
            if (grace.isNegative()) {
                throw new IllegalArgumentException("drainGrace must be >= 0, was " + grace);
            }
            this.drainGrace = representable("drainGrace", grace);
            return this;
        }

        /**
         * The largest request the server takes, in bytes (default 4 MiB, as gRPC's); a larger one is closed with
         * {@code RESOURCE_EXHAUSTED} "… exceeds maximum size …", which the client reports as FATAL. Keep it equal to
         * the clients' {@code maxMessageSize}: a worker's {@link JobContext#sendUpdate update} larger than it is not
         * sent.
         */
        public Builder maxMessageSize(int bytes) {
            if (bytes < 1) {
                throw new IllegalArgumentException("maxMessageSize must be >= 1, was " + bytes);
            }
            this.maxMessageSize = bytes;
            return this;
        }

        /**
         * The shortest interval between a client's keepalive pings that the server tolerates (a client that pings
         * more often is sent away with {@code GOAWAY}); pings on connections with no call are allowed. Default 5 s,
         * under the clients' default of 10 s.
         */
        public Builder permitKeepAlive(Duration interval) {
            Objects.requireNonNull(interval, "permitKeepAlive");
            if (interval.isNegative()) {
                throw new IllegalArgumentException("permitKeepAlive must be >= 0, was " + interval);
            }
            this.permitKeepAlive = representable("permitKeepAlive", interval);
            return this;
        }

        /**
         * HTTP/2 keepalive from the tier2: after {@code time} without a byte from a client's connection the server
         * pings it, and when no answer comes within {@code timeout} it closes the connection and cancels every call on
         * it, as if their client had cancelled them: their jobs are stopped (their workers interrupted), their slots
         * freed, their waiters leave the room. So a job whose tier1 vanished without a reset (its host frozen, a link
         * that drops every packet) is stopped within {@code time + timeout} of the last byte heard from it, not run to
         * its end. A live client answers every ping, whatever its own keepalive; its pings, like any byte it sends,
         * put the server's off. Default 10 s / 5 s. Applies to the server's own Netty transport and to a Netty
         * {@link #serverBuilder}.
         *
         * @param time quiet time before a ping, {@code > 0}
         * @param timeout how long the server waits for the answer, {@code > 0}
         */
        public Builder keepAlive(Duration time, Duration timeout) {
            this.keepAliveTime = positive("keepAlive time", time);
            this.keepAliveTimeout = positive("keepAlive timeout", timeout);
            return this;
        }

        /**
         * How long a client's connection lives: past it (give or take gRPC's 10 % jitter) the tier2 sends
         * {@code GOAWAY}, the calls on the connection run on to their end (no grace cuts them: a job's call lasts
         * as long as its job), and the client opens a new connection for its next calls. Reconnecting, the client's
         * load balancer looks the target's name up again: gRPC's DNS resolver does so only when asked, so without an
         * age a tier1 whose connections all stayed healthy never dialed an instance added after it started (a
         * scale-up of a Kubernetes Deployment, an HPA) nor one that replaced a pod under a new address. Default
         * 2 minutes: new instances get dials within about that, at the cost of one reconnection (TCP, TLS and a new
         * health watch) per client every 2 minutes; shorter gains little with {@code dns:///}, whose resolver answers
         * a look-up within 30 s of the last from its cache. gRPC raises an age under 1 s to 1 s, and takes 1000 days
         * or more as no age at all. Applies to the server's own Netty transport and to a Netty {@link #serverBuilder}.
         */
        public Builder maxConnectionAge(Duration age) {
            this.maxConnectionAge = positive("maxConnectionAge", age);
            return this;
        }

        /**
         * The most calls one connection may have open at once, at least 2; default
         * {@code 4 × maxConcurrentJobs + 16}, plus the seats of a {@link #waitingRoom waiting room} (each waiter is an
         * open call): room for a client's dials and health watches, not for a flood of
         * streams that are never half-closed. Calls past it are not refused: they wait in the client's HTTP/2 layer
         * until one ends, and a dial that waits past the client's {@code admissionTimeout} (plus its
         * {@code admissionWait}, for a client that asks to wait) is UNREACHABLE. A health-checking client's watch
         * holds one call on its connection for good, so with 1 no dial would ever start.
         */
        public Builder maxCallsPerConnection(int max) {
            if (max < 2) {
                throw new IllegalArgumentException("maxCallsPerConnection must be >= 2 (a health-checking client's"
                        + " health watch holds one call on its connection), was " + max);
            }
            this.maxCallsPerConnection = max;
            return this;
        }

        /**
         * How long the instance must stay full before its load status ({@code orderly.tier2.v1.Tier2}) says
         * NOT_SERVING; it says SERVING again the moment a slot frees. Zero: at once. Default 50 ms: an instance whose
         * load matches its slots is full for a moment after each admission, and clients that heard NOT_SERVING would
         * fail their next dials themselves (see docs/results/transport.md).
         */
        public Builder loadStatusDelay(Duration delay) {
            Objects.requireNonNull(delay, "loadStatusDelay");
            if (delay.isNegative()) {
                throw new IllegalArgumentException("loadStatusDelay must be >= 0, was " + delay);
            }
            this.loadStatusDelay = representable("loadStatusDelay", delay);
            return this;
        }

        /**
         * TLS or mTLS: grpc-java's own credentials, e.g. {@code TlsServerCredentials.newBuilder().keyManager(certPem,
         * keyPem).trustManager(clientCaPem).clientAuth(TlsServerCredentials.ClientAuth.REQUIRE).build()} for mTLS.
         */
        public Builder credentials(ServerCredentials credentials) {
            this.credentials = Objects.requireNonNull(credentials, "credentials");
            return this;
        }

        /** No TLS on a host that is not loopback: only on a network you trust. Loopback needs no call. */
        public Builder plaintext() {
            this.plaintext = true;
            return this;
        }

        /**
         * Only calls with {@code authorization: Bearer <t>}, {@code t} one of these, may run jobs (several at once
         * for rotation: add the new token, move the clients, drop the old one); others are {@code UNAUTHENTICATED}.
         * The health service stays open.
         */
        public Builder bearerTokens(Collection<String> tokens) {
            Objects.requireNonNull(tokens, "bearerTokens");
            if (tokens.isEmpty()) {
                throw new IllegalArgumentException("bearerTokens must not be empty");
            }
            int n = 0;
            for (String t : tokens) {
                n++;
                if (t == null || t.isBlank()) {
                    throw new IllegalArgumentException("bearerTokens must not hold a blank token");
                }
                // A client sends its token in an ASCII header (any other character goes as '?'): a token with one
                // could never be matched, and every call would be UNAUTHENTICATED. Not quoted: it is a secret.
                if (!Tier2Security.isPrintableAscii(t.strip())) {
                    throw new IllegalArgumentException("bearerTokens must be printable ASCII; token " + n + " of "
                            + tokens.size() + " is not");
                }
            }
            this.bearerTokens = tokens.stream().map(String::strip).toList();
            return this;
        }

        /** The name sent in {@code Admitted}, for the client's logs; default {@code tier2}. */
        public Builder instanceName(String name) {
            this.instanceName = Objects.requireNonNull(name, "instanceName");
            return this;
        }

        /**
         * Serve on this transport instead of Netty on host:port (for example an {@code InProcessServerBuilder} in
         * tests, or a Netty builder with TLS). Host and port are then ignored, and {@link #credentials} and
         * {@link #plaintext()} refused: the transport is plaintext or TLS as it was built. On a Netty builder, this
         * builder's keepalive ({@link #keepAlive}, {@link #permitKeepAlive}), {@link #maxConnectionAge} and
         * {@link #maxCallsPerConnection} replace what it was given: set them here.
         */
        public Builder serverBuilder(ServerBuilder<?> builder) {
            this.serverBuilder = Objects.requireNonNull(builder, "serverBuilder");
            return this;
        }

        private static Duration positive(String name, Duration d) {
            Objects.requireNonNull(d, name);
            if (!d.isPositive()) {
                throw new IllegalArgumentException(name + " must be > 0, was " + d);
            }
            return representable(name, d);
        }

        /**
         * A duration the server counts in nanoseconds, as gRPC and the JDK's timed waits do: one over
         * {@link Long#MAX_VALUE} of them (about 292 years) overflowed where it was used, long after it was given
         * (an execution timeout threw as each admitted job started, its slot never given back; a drain grace threw
         * from {@code close()}, which then never stopped the server).
         */
        private static Duration representable(String name, Duration d) {
            if (d.compareTo(LONGEST) > 0) {
                throw new IllegalArgumentException(name + " must be at most " + LONGEST + " (about 292 years), was "
                        + d);
            }
            return d;
        }

        /**
         * @throws IllegalStateException if no worker was given; when the host is not loopback and neither
         *     credentials nor {@link #plaintext()} were given, or both were; or for credentials or
         *     {@link #plaintext()} with a {@link #serverBuilder}
         */
        public Tier2Server build() {
            if (worker == null) {
                throw new IllegalStateException("a Tier2Server needs a worker");
            }
            if (credentials != null && plaintext) {
                throw new IllegalStateException("give credentials(...) or call plaintext(), not both");
            }
            if (serverBuilder != null && credentials != null) {
                throw new IllegalStateException("credentials(...) apply to the server's own Netty transport; give"
                        + " them to the serverBuilder instead");
            }
            if (serverBuilder != null && plaintext) {
                // a serverBuilder is plaintext or TLS as it was built: plaintext() would promise what it may not be
                throw new IllegalStateException("plaintext() applies to the server's own Netty transport; a"
                        + " serverBuilder(...) is plaintext or TLS as it was built: give one or the other");
            }
            if (serverBuilder == null && credentials == null && !plaintext && !Targets.isLoopbackHost(host)) {
                throw new IllegalStateException("host " + host
                        + " is not loopback: give credentials(…) or call plaintext()");
            }
            return new Tier2Server(this);
        }
    }
}
