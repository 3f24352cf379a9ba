package dev.orderly.grpc;

import io.grpc.EquivalentAddressGroup;
import io.grpc.NameResolver;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A name resolver for a fixed list of {@code host:port} addresses: each address is one backend, so the load-balancing
 * policy spreads calls over all of them and health checking watches each one. Used by
 * {@link GrpcTier2Client.Builder#addresses(List)}; a fleet that changes is better reached through a {@code dns:///}
 * target.
 */
final class StaticAddressResolver extends NameResolver {

    static final String SCHEME = "orderly-static";

    private final List<InetSocketAddress> addresses;
    private volatile boolean shutdown;
    private volatile Listener2 listener;
    private final AtomicBoolean lookingUp = new AtomicBoolean();

    private StaticAddressResolver(List<InetSocketAddress> addresses) {
        this.addresses = addresses;
    }

    /** Parses {@code host:port}; throws {@link IllegalArgumentException} naming the address when it is not one. */
    static InetSocketAddress parse(String address) {
        int colon = address.lastIndexOf(':');
        if (colon <= 0 || colon == address.length() - 1) {
            throw new IllegalArgumentException("address must be host:port, was '" + address + "'");
        }
        String host = address.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        if (host.isBlank()) {
            // "[]:9000" left no host, which the look-up reads as this machine's own
            throw new IllegalArgumentException("address must be host:port, was '" + address + "'");
        }
        int port;
        try {
            port = Integer.parseInt(address.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("address must be host:port, was '" + address + "'");
        }
        if (port < 1 || port > 65_535) {
            throw new IllegalArgumentException("port must be between 1 and 65535 in address '" + address + "'");
        }
        return InetSocketAddress.createUnresolved(host, port);
    }

    /**
     * The first address's host and port: with TLS, the name each instance's certificate must carry (one channel has
     * one authority, so a static fleet's certificates share a name, or each names every address).
     */
    @Override
    public String getServiceAuthority() {
        InetSocketAddress first = addresses.get(0);
        String host = first.getHostString();
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + first.getPort();
    }

    /**
     * Looks the hosts up on a thread of its own and tells the listener (which hands the result to the channel's
     * synchronization context). gRPC runs {@code start} on whichever thread drains that context, often the dial that
     * woke the channel: a look-up there held the dial for as long as DNS took, before its admission timeout began.
     */
    @Override
    public void start(Listener2 listener) {
        this.listener = listener;
        lookUp();
    }

    /**
     * Looks the hosts up again. gRPC asks when an address fails (and, after an error, with back-off): a name that did
     * not resolve when the channel started (a DNS blip, a pod whose record comes later) was an unresolved address for
     * the life of the client, every dial to it UNREACHABLE although the name resolved a moment later.
     */
    @Override
    public void refresh() {
        if (listener != null) {
            lookUp();
        }
    }

    /** One look-up at a time; one asked for while another runs is that one. */
    private void lookUp() {
        if (!lookingUp.compareAndSet(false, true)) {
            return;
        }
        Thread.ofVirtual().name("orderly-static-resolver").start(() -> {
            try {
                List<EquivalentAddressGroup> groups = new ArrayList<>(addresses.size());
                List<String> unknown = new ArrayList<>();
                for (InetSocketAddress a : addresses) {
                    // Resolved here, not at build time; a name that does not resolve yet is looked up again on refresh
                    InetSocketAddress resolved = new InetSocketAddress(a.getHostString(), a.getPort());
                    if (resolved.isUnresolved()) {
                        unknown.add(a.getHostString());
                    }
                    groups.add(new EquivalentAddressGroup(resolved));
                }
                if (shutdown) {
                    return;
                }
                // none resolves: say which, as a resolution error the channel retries itself
                listener.onResult(ResolutionResult.newBuilder().setAddressesOrError(unknown.size() == addresses.size()
                        ? io.grpc.StatusOr.fromStatus(io.grpc.Status.UNAVAILABLE.withDescription(
                                "can not resolve host " + String.join(", ", unknown)))
                        : io.grpc.StatusOr.fromValue(groups)).build());
            } finally {
                lookingUp.set(false);
            }
        });
    }

    @Override
    public void shutdown() {
        shutdown = true;
    }

    /** The factory a channel is given; it resolves only its own scheme. */
    static final class Factory extends NameResolver.Factory {
        private final List<InetSocketAddress> addresses;

        Factory(List<InetSocketAddress> addresses) {
            this.addresses = List.copyOf(addresses);
        }

        @Override
        public NameResolver newNameResolver(URI targetUri, NameResolver.Args args) {
            return SCHEME.equals(targetUri.getScheme()) ? new StaticAddressResolver(addresses) : null;
        }

        @Override
        public String getDefaultScheme() {
            return SCHEME;
        }
    }
}
