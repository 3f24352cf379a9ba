package dev.orderly.testing.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Regression: a target the proxy can never connect to was taken: a host name that does not resolve (resolved once, at
 * start, and never again) or port 0. The proxy listened, said {@code listening on ...}, and reset every connection
 * for its whole life, where a bad option is one line and exit status 2 (and {@code TcpProxy.start} takes no such
 * target either).
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ATargetThatCanNeverBeReachedIsRefusedTest {

    @Test
    void aTargetHostThatDoesNotResolveIsABadOption() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ProxyOptions.parse(
                new String[] {"--listen=127.0.0.1:0", "--target=no-such-host.invalid:8080"}));
        assertEquals("--target: cannot resolve host 'no-such-host.invalid' in 'no-such-host.invalid:8080'",
                e.getMessage());
    }

    @Test
    void aTargetPortOfZeroIsABadOption() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ProxyOptions.parse(
                new String[] {"--listen=127.0.0.1:0", "--target=127.0.0.1:0"}));
        assertEquals("--target: port must be 1..65535, got 0 in '127.0.0.1:0'", e.getMessage());
    }

    @Test
    void startRefusesATargetThatCanNeverBeReached() {
        IllegalArgumentException unresolved = assertThrows(IllegalArgumentException.class,
                () -> TcpProxy.start(InetSocketAddress.createUnresolved("no-such-host.invalid", 8080)));
        assertEquals("target must be resolved, was no-such-host.invalid:8080 (unresolved)",
                unresolved.getMessage());
        IllegalArgumentException portZero = assertThrows(IllegalArgumentException.class,
                () -> TcpProxy.start(new InetSocketAddress("127.0.0.1", 0)));
        assertEquals("target port must be 1..65535, was 0", portZero.getMessage());
    }
}
