package dev.orderly.grpc;

import com.google.protobuf.ByteString;
import dev.orderly.api.Job;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Client;
import dev.orderly.api.Tier2Exception;
import dev.orderly.grpc.proto.Priority;
import dev.orderly.grpc.proto.ProcessRangeRequest;
import dev.orderly.grpc.proto.ProcessRangeResponse;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ChannelCredentials;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptors;
import io.grpc.LoadBalancerRegistry;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.stub.ClientCalls;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A {@link Tier2Client} that hands each job to a tier2 over gRPC ({@code orderly.tier2.v1.Tier2/ProcessRange}).
 *
 * <p>{@link #dial} starts the call and blocks until the tier2 sends {@code Admitted} (then returns the call, and the
 * job leaves the launch queue), the call ends first (then throws, mapped as {@link StatusMapping} says), or the
 * {@linkplain Builder#admissionTimeout admission timeout} passes (then the call is cancelled and the dial is
 * UNREACHABLE: nothing ran). {@link Tier2Call#await()} blocks until {@code Completed}; {@link Tier2Call#close()}
 * cancels the call, which stops the job on the tier2 and frees its slot.
 *
 * <p>The channel balances over every instance the target resolves to ({@code round_robin} by default) and watches
 * each instance's load status ({@code grpc.health.v1}, service {@code orderly.tier2.v1.Tier2}), so an instance that
 * says NOT_SERVING (full or draining) gets no calls until it serves again. TLS ({@link Builder#credentials}) keeps
 * both. Keepalive pings end a connection to an instance that stopped answering, its health watch with it.
 *
 * <p>This class is thread-safe; one client serves any number of requests at once. Close it to release the channel.
 */
public final class GrpcTier2Client implements Tier2Client, AutoCloseable {

    /** The longest wait a condition can take in nanoseconds (about 292 years): longer waits are this. */
    private static final Duration LONGEST = Duration.ofNanos(Long.MAX_VALUE);

    /*
     * A dial not admitted within admissionTimeout almost always met an instance that accepts bytes and answers
     * nothing (SIGSTOP, a dead link, a wedged process): its connection is still READY and its health watch still
     * says SERVING, so round_robin keeps picking it until keepalive (>= 10 s in grpc-java) kills the connection.
     * So the client also rebuilds its connections at once (ManagedChannel.enterIdle(): calls in flight go on), and
     * an instance that cannot complete a new HTTP/2 handshake is left out of the pick until it answers again. At
     * most one rebuild per admissionTimeout: a window of dials timing out together rebuilds once. A callTimeout
     * shorter than the admission limit ends such a dial first; it rebuilds the same way (unless the dial may still
     * have been waiting in a room, callTimeout not over admissionWait).
     */
    private final ManagedChannel channel;
    private final Channel calls;
    private final boolean ownsChannel;
    private final String target;
    private final Duration callTimeout;
    private final Duration admissionTimeout;
    private final Duration admissionWait;
    private final Duration admissionLimit;
    private final int maxMessageSize;
    private final Function<Job, byte[]> work;
    private final BearerToken token;
    private final boolean plaintext; // no TLS on a channel this client built (unknown, so false, for channel(...))
    private final AtomicLong lastReconnectNanos = new AtomicLong(System.nanoTime());
    private final AtomicLong lastBackoffResetNanos = new AtomicLong(System.nanoTime());

    private GrpcTier2Client(ManagedChannel channel, BearerToken token, boolean ownsChannel, String target,
                            Builder b) {
        this.channel = channel;
        this.token = token;
        this.calls = token == null ? channel : ClientInterceptors.intercept(channel, token);
        this.ownsChannel = ownsChannel;
        this.target = target;
        this.callTimeout = b.callTimeout;
        this.admissionTimeout = b.admissionTimeout;
        this.admissionWait = b.admissionWait;
        this.admissionLimit = saturated(b.admissionTimeout, b.admissionWait);
        this.maxMessageSize = b.maxMessageSize;
        this.work = b.work;
        this.plaintext = ownsChannel && (b.credentials == null || ClientChannels.isPlaintext(b.credentials));
        this.lastReconnectNanos.addAndGet(-admissionTimeout.toNanos());
        this.lastBackoffResetNanos.addAndGet(-admissionTimeout.toNanos());
    }

    /** A builder; {@link Builder#target} or {@link Builder#addresses} is required. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * {@inheritDoc} The tier2 is told the job's {@link Job#stages()} (when it is not 0): it drops a lower stage's
     * output.
     */
    @Override
    public Tier2Call dial(Job job) throws Tier2Exception, InterruptedException {
        Objects.requireNonNull(job, "job");
        if (Thread.interrupted()) {
            throw new InterruptedException("dial of " + job.key() + " cancelled before it started");
        }
        if (channel.isShutdown()) {
            // gRPC fails such a call UNAVAILABLE, which is UNREACHABLE: free and never counted, so a request still
            // running on a closed client would dial again until its deadline. No retry can open it again.
            throw closed(job, "is closed", null);
        }
        byte[] bytes = work.apply(job);
        ProcessRangeRequest.Builder rb = ProcessRangeRequest.newBuilder()
                .setRequestId(job.requestId())
                .setSegment(job.key().segment())
                .setStage(job.key().stage())
                .setAttempt(job.attempt())
                .setStages(job.stages())
                .setWork(bytes == null ? ByteString.EMPTY : ByteString.copyFrom(bytes));
        if (admissionWait.isPositive()) {
            // without it the request is the same bytes an older client sends: refused at once when full
            rb.setPriority(Priority.newBuilder().setTenant(job.requestId()).setRank(job.rank())
                    .setMaxWaitMs(waitMillis(admissionWait)));
        }
        ProcessRangeRequest request = rb.build();
        int size = request.getSerializedSize();
        if (size > maxMessageSize) {
            throw Tier2Exception.fatal("work of segment " + job.key().segment() + " stage " + job.key().stage()
                    + " is " + (bytes == null ? 0 : bytes.length) + " bytes (a request of " + size
                    + "), over the limit of " + maxMessageSize + " (maxMessageSize)", null);
        }
        CallOptions options = CallOptions.DEFAULT.withMaxOutboundMessageSize(maxMessageSize);
        if (callTimeout != null) {
            options = options.withDeadlineAfter(callTimeout.toNanos(), TimeUnit.NANOSECONDS);
        }
        GrpcTier2Call call = new GrpcTier2Call(job, target, plaintext);
        try {
            ClientCall<ProcessRangeRequest, ProcessRangeResponse> clientCall =
                    calls.newCall(Tier2Protocol.PROCESS_RANGE, options);
            ClientCalls.asyncServerStreamingCall(clientCall, request, call);
        } catch (RuntimeException e) {
            if (Thread.interrupted()) { // interrupted while the bearer token supplier was asked
                throw new InterruptedException("dial of " + job.key() + " cancelled before it started");
            }
            throw closedOr(job, StatusMapping.toException(Status.fromThrowable(e), false, call.what(),
                    plaintext));
        }
        try {
            // a dial that may wait in a tier2's room is neither admitted nor refused for up to its wait
            if (!call.awaitAdmitted(admissionLimit)) {
                call.close();
                boolean reconnecting = reconnect();
                // a dial that asked to wait was given its wait on top of the admission timeout: say both
                String within = admissionWait.isPositive()
                        ? admissionLimit.toMillis() + " ms (admissionWait " + admissionWait.toMillis()
                                + " ms + admissionTimeout " + admissionTimeout.toMillis() + " ms)"
                        : admissionTimeout.toMillis() + " ms (admissionTimeout)";
                throw Tier2Exception.unreachable(call.what() + ": neither admitted nor refused within " + within
                        + ": an instance that does not answer" + (reconnecting ? "; reconnecting" : ""));
            }
        } catch (Tier2Exception e) {
            call.close();
            if (call.deadlinePassedBeforeAdmitted() && callTimeout != null
                    && callTimeout.compareTo(admissionWait) > 0) {
                // its callTimeout, shorter than its admission limit, ran out first: the same silence, longer than any
                // room holds a dial, so the same instance that answers nothing
                reconnect();
            } else if (e.kind() == Tier2Exception.Kind.UNREACHABLE || e.kind() == Tier2Exception.Kind.REFUSED) {
                retryConnectionsNow();
            }
            throw closedOr(job, e);
        } catch (InterruptedException | RuntimeException e) {
            call.close();
            throw e;
        }
        return call;
    }

    /**
     * {@code failed}, unless it says nothing ran and this client's channel is shut down: then it was cut by this
     * client's close (gRPC's "Channel shutdownNow invoked"), which no retry can open again, and is FATAL.
     */
    private Tier2Exception closedOr(Job job, Tier2Exception failed) {
        return failed.neverRan() && channel.isShutdown() ? closed(job, "was closed during the dial", failed) : failed;
    }

    /** FATAL: this client's channel is shut down, so no dial of it can ever get through. */
    private Tier2Exception closed(Job job, String when, Tier2Exception cause) {
        return Tier2Exception.fatal("dial of " + job.requestId() + " segment " + job.key().segment() + " stage "
                + job.key().stage() + " (" + target + "): this GrpcTier2Client " + when + " (its channel is shut"
                + " down)", cause);
    }

    /** Whole milliseconds, rounded up: a wait under 1 ms must not become 0, which means "do not wait". */
    private static long waitMillis(Duration wait) {
        if (wait.compareTo(LONGEST) >= 0) {
            return LONGEST.toMillis();
        }
        long ms = wait.toMillis();
        return wait.minusMillis(ms).isZero() ? ms : ms + 1;
    }

    /** {@code a + b}, at most {@link #LONGEST}. */
    private static Duration saturated(Duration a, Duration b) {
        return a.compareTo(LONGEST.minus(b.compareTo(LONGEST) >= 0 ? LONGEST : b)) >= 0 ? LONGEST : a.plus(b);
    }

    /** Rebuilds the channel's connections, at most once per admission timeout; whether it did now. */
    private boolean reconnect() {
        if (!due(lastReconnectNanos)) {
            return false;
        }
        channel.enterIdle();
        return true;
    }

    /**
     * Ends gRPC's connect back-off (1 s growing to 120 s) at once, at most once per admission timeout. A dial that
     * fails UNREACHABLE at once met instances that refused the connection: gRPC then waits out its back-off before it
     * tries again, failing every dial meanwhile, so a tier2 back on its port after an outage of a minute or two was
     * not dialed for up to two more minutes. A REFUSED dial met a full fleet, which an instance back would relieve:
     * while one is down, the others' waiting rooms, which say SERVING while a seat is free, take every dial and refuse
     * it, so gRPC alone decided when the one down was tried. The engine already paces its redials; this lets them
     * reach it.
     */
    private void retryConnectionsNow() {
        if (due(lastBackoffResetNanos)) {
            channel.resetConnectBackoff();
        }
    }

    /**
     * Whether an action on the channel that {@code lastNanos} paces is due: on a channel this client built, at most
     * once per admission timeout. A true answer takes the turn (only one of racing callers gets it).
     */
    private boolean due(AtomicLong lastNanos) {
        if (!ownsChannel) {
            return false;
        }
        long now = System.nanoTime();
        long last = lastNanos.get();
        return now - last >= admissionTimeout.toNanos() && lastNanos.compareAndSet(last, now);
    }

    /**
     * Shuts the channel down (if this client built it); calls still open are cancelled, a dial still waiting to be
     * admitted (or for its bearer token) ends at once as FATAL, and so does a dial from now on (so does one through a
     * channel given with {@link Builder#channel} once it is shut down).
     */
    @Override
    public void close() {
        if (!ownsChannel) {
            return;
        }
        channel.shutdownNow();
        if (token != null) {
            token.close(); // a dial waiting for the supplier is told now, not at its admission timeout
        }
        boolean interrupted = false;
        try {
            channel.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            interrupted = true;
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Builds a {@link GrpcTier2Client}. Every setting is checked when it is given, and their combination at
     * {@link #build()}. Not thread-safe.
     */
    public static final class Builder {
        String target;
        List<String> addresses;
        ManagedChannel channel;
        String loadBalancingPolicy = "round_robin";
        boolean healthChecking = true;
        Duration callTimeout;
        Function<Job, byte[]> work = job -> null;
        Duration admissionTimeout = Duration.ofSeconds(10);
        Duration admissionWait = Duration.ZERO;
        Duration keepAliveTime = Duration.ofSeconds(10);
        Duration keepAliveTimeout = Duration.ofSeconds(5);
        int maxMessageSize = Tier2Server.DEFAULT_MAX_MESSAGE_SIZE;
        ChannelCredentials credentials;
        boolean plaintext;
        Supplier<String> bearerToken;

        private Builder() {
        }

        /**
         * Any gRPC target, e.g. {@code dns:///tier2.internal:9000} (a Kubernetes headless Service) or
         * {@code host:port}. Its port is checked at {@link #build()}.
         */
        public Builder target(String target) {
            Objects.requireNonNull(target, "target");
            if (target.isBlank()) {
                throw new IllegalArgumentException("target must not be blank");
            }
            this.target = target;
            return this;
        }

        /**
         * A static fleet: every {@code host:port} is one instance. Host names are looked up when the channel starts,
         * and again when an address fails (so a name not in DNS yet is reached once it is).
         *
         * @throws IllegalArgumentException naming the address when one is not {@code host:port}, or if the list is
         *     empty
         */
        public Builder addresses(List<String> addresses) {
            Objects.requireNonNull(addresses, "addresses");
            if (addresses.isEmpty()) {
                throw new IllegalArgumentException("addresses must not be empty");
            }
            for (String a : addresses) {
                StaticAddressResolver.parse(Objects.requireNonNull(a, "address"));
            }
            this.addresses = List.copyOf(addresses);
            return this;
        }

        /**
         * A channel built elsewhere (in-process in tests); the client uses it as it is, without load-balancing,
         * health, keepalive, credentials or message-size settings, and does not shut it down. For TLS prefer
         * {@link #credentials}, which keeps load balancing and health checking.
         */
        public Builder channel(ManagedChannel channel) {
            this.channel = Objects.requireNonNull(channel, "channel");
            return this;
        }

        /**
         * The gRPC load-balancing policy over the target's instances; default {@code round_robin}. One gRPC does not
         * know (none registered under that name) is an {@link IllegalArgumentException} here.
         */
        public Builder loadBalancingPolicy(String policy) {
            Objects.requireNonNull(policy, "loadBalancingPolicy");
            if (policy.isBlank()) {
                throw new IllegalArgumentException("loadBalancingPolicy must not be blank");
            }
            // Here, not at build(): gRPC's own refusal there names the value but not the setting.
            if (LoadBalancerRegistry.getDefaultRegistry().getProvider(policy) == null) {
                throw new IllegalArgumentException("loadBalancingPolicy must be a policy gRPC knows (round_robin,"
                        + " pick_first, ...), was '" + policy + "'");
            }
            this.loadBalancingPolicy = policy;
            return this;
        }

        /** Whether to watch each instance's load status (default true; needs {@code round_robin}). */
        public Builder healthChecking(boolean enabled) {
            this.healthChecking = enabled;
            return this;
        }

        /**
         * The longest a call may run, admission included. Its expiry after {@code Admitted} is EXECUTION_TIMEOUT;
         * before it, UNREACHABLE (nothing ran). Default: no limit.
         */
        public Builder callTimeout(Duration timeout) {
            this.callTimeout = positive("callTimeout", timeout);
            return this;
        }

        /**
         * How long a dial waits to be admitted or refused; past it the call is cancelled and the dial is UNREACHABLE
         * (nothing ran: free, not counted). Default 10 s.
         */
        public Builder admissionTimeout(Duration timeout) {
            this.admissionTimeout = positive("admissionTimeout", timeout);
            return this;
        }

        /**
         * How long a dial may wait for a slot at a full tier2 that has a waiting room (sent as
         * {@code priority.max_wait_ms}, with the job's request id as its tenant and {@link Job#rank()} as its rank;
         * the tier2 waits at most its own limit). A dial still refused when the wait ends is REFUSED, as at once:
         * nothing ran, so waiting is free. A tier2 without a room refuses at once as before. A dial is given
         * {@code admissionTimeout} on top of this wait before it counts as unanswered. Default 0: do not wait.
         */
        public Builder admissionWait(Duration wait) {
            Objects.requireNonNull(wait, "admissionWait");
            if (wait.isNegative()) {
                throw new IllegalArgumentException("admissionWait must be >= 0, was " + wait);
            }
            this.admissionWait = wait;
            return this;
        }

        /**
         * HTTP/2 keepalive: a ping after {@code time} without reads, the connection closed when no answer comes
         * within {@code timeout}; pings also go on connections with no call. Default 10 s / 5 s. gRPC raises a
         * {@code time} under 10 s to 10 s and a {@code timeout} under 10 ms to 10 ms, and takes a {@code time} of
         * 1000 days or more as no keepalive at all. The tier2 must permit it
         * ({@code Tier2Server.Builder.permitKeepAlive}).
         */
        public Builder keepAlive(Duration time, Duration timeout) {
            this.keepAliveTime = positive("keepAlive time", time);
            this.keepAliveTimeout = positive("keepAlive timeout", timeout);
            return this;
        }

        /**
         * The largest message either way, in bytes (default 4 MiB, as gRPC's). A job whose request is larger is
         * FATAL before it is dialed. The tier2's limit should be the same ({@code Tier2Server.Builder.maxMessageSize}).
         */
        public Builder maxMessageSize(int bytes) {
            if (bytes < 1) {
                throw new IllegalArgumentException("maxMessageSize must be >= 1, was " + bytes);
            }
            this.maxMessageSize = bytes;
            return this;
        }

        /**
         * TLS or mTLS: grpc-java's own credentials, e.g. {@code TlsChannelCredentials.newBuilder().trustManager(caPem)
         * .keyManager(certPem, keyPem).build()}. Load balancing and health checking stay as they are.
         */
        public Builder credentials(ChannelCredentials credentials) {
            this.credentials = Objects.requireNonNull(credentials, "credentials");
            return this;
        }

        /** No TLS, even to a target that is not loopback: only on a network you trust. Loopback needs no call. */
        public Builder plaintext() {
            this.plaintext = true;
            return this;
        }

        /**
         * Sends {@code authorization: Bearer <token>} on every call, asking the supplier each time (so a rotated
         * token is picked up). Refused at {@link #build()} over plaintext to a target that is not loopback. The
         * supplier runs on a thread of its own; a dial waits for it at most {@link #admissionTimeout}, and never past
         * its {@link #callTimeout} (then it is UNREACHABLE, as when the supplier throws) and an interrupt ends the
         * wait. At most one call of the supplier is in flight: a dial that comes while it is still asked waits for
         * that answer, so a supplier that never returns holds one thread, not one per dial.
         */
        public Builder bearerToken(Supplier<String> token) {
            this.bearerToken = Objects.requireNonNull(token, "bearerToken");
            return this;
        }

        /** The opaque bytes sent with each job for the tier2's worker; default none. */
        public Builder work(Function<Job, byte[]> work) {
            this.work = Objects.requireNonNull(work, "work");
            return this;
        }

        /**
         * @throws IllegalStateException unless exactly one of target, addresses and channel was given; when the
         *     target is not loopback and neither credentials nor {@link #plaintext()} were given; when both were; or
         *     for a bearer token over plaintext off loopback
         * @throws IllegalArgumentException naming the target when its port is not 1..65535
         */
        public GrpcTier2Client build() {
            int given = (target != null ? 1 : 0) + (addresses != null ? 1 : 0) + (channel != null ? 1 : 0);
            if (given != 1) {
                throw new IllegalStateException("give exactly one of target, addresses or channel; was " + given);
            }
            if (credentials != null && plaintext) {
                throw new IllegalStateException("give credentials(...) or call plaintext(), not both");
            }
            BearerToken token = bearerToken == null ? null : new BearerToken(bearerToken, admissionTimeout,
                    callTimeout);
            if (channel != null) {
                return new GrpcTier2Client(channel, token, false, channel.authority(), this);
            }
            ManagedChannel built = ClientChannels.open(this);
            return new GrpcTier2Client(built, token, true, ClientChannels.describe(this), this);
        }

        private static Duration positive(String name, Duration d) {
            Objects.requireNonNull(d, name);
            if (!d.isPositive()) {
                throw new IllegalArgumentException(name + " must be > 0, was " + d);
            }
            // Counted in nanoseconds by gRPC and the JDK's timed waits: past Long.MAX_VALUE of them it overflowed where
            // it was used (at build() for admissionTimeout and keepAlive, at every dial for callTimeout).
            if (d.compareTo(LONGEST) > 0) {
                throw new IllegalArgumentException(name + " must be at most " + LONGEST + " (about 292 years), was "
                        + d);
            }
            return d;
        }
    }
}
