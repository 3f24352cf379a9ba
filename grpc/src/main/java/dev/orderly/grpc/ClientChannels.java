package dev.orderly.grpc;

import io.grpc.ChannelCredentials;
import io.grpc.ChoiceChannelCredentials;
import io.grpc.CompositeChannelCredentials;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Builds the channel of a {@link GrpcTier2Client} from its builder's settings, after checking them together: the
 * target's port, and plaintext only on loopback unless asked for. The channel keeps {@code round_robin} (or the
 * chosen policy) and health checking whatever the credentials are.
 */
final class ClientChannels {

    private ClientChannels() {
    }

    static ManagedChannel open(GrpcTier2Client.Builder b) {
        if (b.target != null) {
            Targets.check(b.target);
        }
        boolean loopback = b.target != null ? Targets.isLoopback(b.target)
                : b.addresses.stream().allMatch(a -> Targets.isLoopbackHost(StaticAddressResolver.parse(a)
                        .getHostString()));
        if (b.credentials == null && !b.plaintext && !loopback) {
            throw new IllegalStateException(describe(b) + " is not loopback: give credentials(…) or call plaintext()");
        }
        // Insecure credentials are plaintext too, given another way (or wrapped): the token must not take it off
        // loopback.
        boolean clear = b.credentials == null || isPlaintext(b.credentials);
        if (clear && b.bearerToken != null && !loopback) {
            throw new IllegalStateException("a bearer token would cross the network in the clear to " + describe(b)
                    + ": give credentials(…) for TLS");
        }
        ChannelCredentials credentials = b.credentials != null ? b.credentials : InsecureChannelCredentials.create();
        ManagedChannelBuilder<?> cb;
        if (b.addresses != null) {
            cb = staticFleet(b.addresses, credentials);
        } else {
            cb = Grpc.newChannelBuilder(b.target, credentials);
        }
        Map<String, Object> lb = Map.of("loadBalancingConfig", List.of(Map.of(b.loadBalancingPolicy, Map.of())));
        Map<String, Object> serviceConfig = b.healthChecking
                ? Map.of("loadBalancingConfig", lb.get("loadBalancingConfig"),
                        "healthCheckConfig", Map.of("serviceName", Tier2Protocol.SERVICE_NAME))
                : lb;
        return cb.defaultServiceConfig(serviceConfig)
                .disableServiceConfigLookUp()
                .keepAliveTime(b.keepAliveTime.toNanos(), TimeUnit.NANOSECONDS)
                .keepAliveTimeout(b.keepAliveTimeout.toNanos(), TimeUnit.NANOSECONDS)
                .keepAliveWithoutCalls(true)
                .maxInboundMessageSize(b.maxMessageSize)
                .build();
    }

    /**
     * Whether calls may go out in the clear with {@code credentials}: plaintext itself, plaintext with call credentials
     * ({@link CompositeChannelCredentials}), or a {@link ChoiceChannelCredentials} any of whose choices is plaintext.
     */
    static boolean isPlaintext(ChannelCredentials credentials) {
        if (credentials instanceof InsecureChannelCredentials) {
            return true;
        }
        if (credentials instanceof CompositeChannelCredentials composite) {
            return isPlaintext(composite.getChannelCredentials());
        }
        if (credentials instanceof ChoiceChannelCredentials choice) {
            return choice.getCredentialsList().stream().anyMatch(ClientChannels::isPlaintext);
        }
        return false;
    }

    /** The target as a person wrote it, for messages. */
    static String describe(GrpcTier2Client.Builder b) {
        return b.target != null ? "target " + b.target : "addresses " + String.join(",", b.addresses);
    }

    @SuppressWarnings("deprecation") // nameResolverFactory is the only per-channel way to give a fixed list
    private static ManagedChannelBuilder<?> staticFleet(List<String> addresses, ChannelCredentials credentials) {
        List<InetSocketAddress> parsed = new ArrayList<>(addresses.size());
        for (String a : addresses) {
            parsed.add(StaticAddressResolver.parse(a));
        }
        return Grpc.newChannelBuilder(StaticAddressResolver.SCHEME + ":///fleet", credentials)
                .nameResolverFactory(new StaticAddressResolver.Factory(parsed));
    }
}
