package dev.orderly.grpc;

import com.google.protobuf.ByteString;
import dev.orderly.api.Job;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Client;
import dev.orderly.api.Tier2Exception;
import dev.orderly.grpc.proto.ProcessRangeRequest;
import dev.orderly.grpc.proto.ProcessRangeResponse;
import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.stub.ClientCalls;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * A {@link Tier2Client} that hands each job to a tier2 over gRPC ({@code orderly.tier2.v1.Tier2/ProcessRange}).
 *
 * <p>{@link #dial} starts the call and blocks until the tier2 sends {@code Admitted} (then returns the call, and the
 * job leaves the launch queue) or the call ends first (then throws, mapped as {@link StatusMapping} says: a full tier2
 * is REFUSED, an unreachable or draining one UNREACHABLE). {@link Tier2Call#await()} blocks until {@code Completed};
 * {@link Tier2Call#close()} cancels the call, which stops the job on the tier2 and frees its slot.
 *
 * <p>The channel balances over every instance the target resolves to ({@code round_robin} by default) and watches
 * each instance with the standard {@code grpc.health.v1} health check, so an instance that says NOT_SERVING (full or
 * draining) gets no calls until it serves again.
 *
 * <p>This class is thread-safe; one client serves any number of requests at once. Close it to release the channel.
 */
public final class GrpcTier2Client implements Tier2Client, AutoCloseable {

    private final ManagedChannel channel;
    private final boolean ownsChannel;
    private final Duration callTimeout;
    private final Function<Job, byte[]> work;

    private GrpcTier2Client(ManagedChannel channel, boolean ownsChannel, Duration callTimeout,
                            Function<Job, byte[]> work) {
        this.channel = channel;
        this.ownsChannel = ownsChannel;
        this.callTimeout = callTimeout;
        this.work = work;
    }

    /** A builder; {@link Builder#target} or {@link Builder#addresses} is required. */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public Tier2Call dial(Job job) throws Tier2Exception, InterruptedException {
        Objects.requireNonNull(job, "job");
        if (Thread.interrupted()) {
            throw new InterruptedException("dial of " + job.key() + " cancelled before it started");
        }
        CallOptions options = CallOptions.DEFAULT;
        if (callTimeout != null) {
            options = options.withDeadlineAfter(callTimeout.toNanos(), TimeUnit.NANOSECONDS);
        }
        byte[] bytes = work.apply(job);
        ProcessRangeRequest request = ProcessRangeRequest.newBuilder()
                .setRequestId(job.requestId())
                .setSegment(job.key().segment())
                .setStage(job.key().stage())
                .setAttempt(job.attempt())
                .setWork(bytes == null ? ByteString.EMPTY : ByteString.copyFrom(bytes))
                .build();
        GrpcTier2Call call = new GrpcTier2Call(job);
        ClientCall<ProcessRangeRequest, ProcessRangeResponse> clientCall =
                channel.newCall(Tier2Protocol.PROCESS_RANGE, options);
        ClientCalls.asyncServerStreamingCall(clientCall, request, call);
        try {
            call.awaitAdmitted();
        } catch (Tier2Exception | InterruptedException | RuntimeException e) {
            call.close();
            throw e;
        }
        return call;
    }

    /** Shuts the channel down (if this client built it); calls still open are cancelled. */
    @Override
    public void close() {
        if (!ownsChannel) {
            return;
        }
        channel.shutdownNow();
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

    /** Builds a {@link GrpcTier2Client}. Not thread-safe. */
    public static final class Builder {
        private String target;
        private List<InetSocketAddress> addresses;
        private ManagedChannel channel;
        private String loadBalancingPolicy = "round_robin";
        private boolean healthChecking = true;
        private Duration callTimeout;
        private Function<Job, byte[]> work = job -> null;
        private Duration admissionTimeout = Duration.ofSeconds(10);
        private Duration keepAliveTime = Duration.ofSeconds(10);
        private Duration keepAliveTimeout = Duration.ofSeconds(5);
        private int maxMessageSize = 4 * 1024 * 1024;

        private Builder() {
        }

        /**
         * Any gRPC target, e.g. {@code dns:///tier2.internal:9000} (a Kubernetes headless Service) or
         * {@code host:port}.
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
         * A static fleet: every {@code host:port} is one instance.
         *
         * @throws IllegalArgumentException naming the address when one is not {@code host:port}, or if the list is
         *     empty
         */
        public Builder addresses(List<String> addresses) {
            Objects.requireNonNull(addresses, "addresses");
            if (addresses.isEmpty()) {
                throw new IllegalArgumentException("addresses must not be empty");
            }
            List<InetSocketAddress> parsed = new ArrayList<>(addresses.size());
            for (String a : addresses) {
                parsed.add(StaticAddressResolver.parse(Objects.requireNonNull(a, "address")));
            }
            this.addresses = parsed;
            return this;
        }

        /**
         * A channel built elsewhere (in-process in tests, or with TLS and interceptors); the client uses it as it is,
         * without load-balancing or health settings, and does not shut it down.
         */
        public Builder channel(ManagedChannel channel) {
            this.channel = Objects.requireNonNull(channel, "channel");
            return this;
        }

        /** The gRPC load-balancing policy over the target's instances; default {@code round_robin}. */
        public Builder loadBalancingPolicy(String policy) {
            Objects.requireNonNull(policy, "loadBalancingPolicy");
            if (policy.isBlank()) {
                throw new IllegalArgumentException("loadBalancingPolicy must not be blank");
            }
            this.loadBalancingPolicy = policy;
            return this;
        }

        /** Whether to watch each instance's {@code grpc.health.v1} status (default true; needs {@code round_robin}). */
        public Builder healthChecking(boolean enabled) {
            this.healthChecking = enabled;
            return this;
        }

        /** The longest a call may run, admission included; its expiry is EXECUTION_TIMEOUT. Default: no limit. */
        public Builder callTimeout(Duration timeout) {
            Objects.requireNonNull(timeout, "callTimeout");
            if (!timeout.isPositive()) {
                throw new IllegalArgumentException("callTimeout must be > 0, was " + timeout);
            }
            this.callTimeout = timeout;
            return this;
        }

        public Builder admissionTimeout(Duration timeout) {
            this.admissionTimeout = timeout;
            return this;
        }

        public Builder keepAlive(Duration time, Duration timeout) {
            this.keepAliveTime = time;
            this.keepAliveTimeout = timeout;
            return this;
        }

        public Builder maxMessageSize(int bytes) {
            this.maxMessageSize = bytes;
            return this;
        }

        /** The opaque bytes sent with each job for the tier2's worker; default none. */
        public Builder work(Function<Job, byte[]> work) {
            this.work = Objects.requireNonNull(work, "work");
            return this;
        }

        /**
         * @throws IllegalStateException unless exactly one of target, addresses and channel was given
         */
        public GrpcTier2Client build() {
            int given = (target != null ? 1 : 0) + (addresses != null ? 1 : 0) + (channel != null ? 1 : 0);
            if (given != 1) {
                throw new IllegalStateException("give exactly one of target, addresses or channel; was " + given);
            }
            if (channel != null) {
                return new GrpcTier2Client(channel, false, callTimeout, work);
            }
            ManagedChannelBuilder<?> b;
            if (addresses != null) {
                b = staticFleet(addresses);
            } else {
                b = Grpc.newChannelBuilder(target, InsecureChannelCredentials.create());
            }
            Map<String, Object> serviceConfig = healthChecking
                    ? Map.of("loadBalancingConfig", List.of(Map.of(loadBalancingPolicy, Map.of())),
                            "healthCheckConfig", Map.of("serviceName", ""))
                    : Map.of("loadBalancingConfig", List.of(Map.of(loadBalancingPolicy, Map.of())));
            ManagedChannel built = b.defaultServiceConfig(serviceConfig).disableServiceConfigLookUp().build();
            return new GrpcTier2Client(built, true, callTimeout, work);
        }

        @SuppressWarnings("deprecation") // nameResolverFactory is the only per-channel way to give a fixed list
        private static ManagedChannelBuilder<?> staticFleet(List<InetSocketAddress> addresses) {
            return Grpc.newChannelBuilder(StaticAddressResolver.SCHEME + ":///fleet",
                            InsecureChannelCredentials.create())
                    .nameResolverFactory(new StaticAddressResolver.Factory(addresses));
        }
    }
}
