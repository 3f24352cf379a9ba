package dev.orderly.grpc;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.net.spi.InetAddressResolver;
import java.net.spi.InetAddressResolverProvider;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Installed for this module's tests by {@code META-INF/services/java.net.spi.InetAddressResolverProvider}, which the
 * JDK reads once per JVM (JDK 18+): every name resolves as the JDK's own resolver says, except names ending in
 * {@value #SUFFIX}, which stand for a DNS server that is slow to answer: their look-up blocks until {@link #answer()}
 * (at most a minute), then says 127.0.0.1; and names ending in {@value #LATE_SUFFIX}, which stand for a name that is
 * not in DNS yet (a pod whose record comes later): unknown until {@link #appear()}, then 127.0.0.1.
 */
public final class SlowNamesForTests extends InetAddressResolverProvider {

    static final String SUFFIX = ".slow.test";
    static final String LATE_SUFFIX = ".late.test";
    private static volatile CountDownLatch answer = new CountDownLatch(1);
    private static volatile boolean lateNamesKnown;

    /** Late names resolve from now on. */
    static void appear() {
        lateNamesKnown = true;
    }

    /** Late names are unknown again. */
    static void disappear() {
        lateNamesKnown = false;
    }

    /** Slow names answer from now on. */
    static void answer() {
        answer.countDown();
    }

    /** Slow names block again. */
    static void blockAgain() {
        answer = new CountDownLatch(1);
    }

    @Override
    public InetAddressResolver get(Configuration configuration) {
        InetAddressResolver builtin = configuration.builtinResolver();
        return new InetAddressResolver() {
            @Override
            public Stream<InetAddress> lookupByName(String host, LookupPolicy policy) throws UnknownHostException {
                if (host.endsWith(LATE_SUFFIX)) {
                    if (!lateNamesKnown) {
                        throw new UnknownHostException(host + ": not in DNS yet");
                    }
                    return Stream.of(InetAddress.getByAddress(host, new byte[] {127, 0, 0, 1}));
                }
                if (!host.endsWith(SUFFIX)) {
                    return builtin.lookupByName(host, policy);
                }
                try {
                    answer.await(60, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new UnknownHostException(host + " (lookup interrupted)");
                }
                return Stream.of(InetAddress.getByAddress(host, new byte[] {127, 0, 0, 1}));
            }

            @Override
            public String lookupByAddress(byte[] addr) throws UnknownHostException {
                return builtin.lookupByAddress(addr);
            }
        };
    }

    @Override
    public String name() {
        return "orderly slow names for tests";
    }
}
