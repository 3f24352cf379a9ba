package dev.orderly.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Regression: a host of four dotted numbers starting with 127 was taken for a loopback address, so plaintext (and a
 * bearer token) needed no opt-in, even when a number was over 255: {@code 127.300.0.1} is no IPv4 literal, so the
 * channel looks it up in DNS, which may answer with any host. Only a real literal is loopback, without resolving.
 */
class OnlyARealLoopbackAddressIsLoopbackTest {

    @ParameterizedTest(name = "{0} is loopback: {1}")
    @CsvSource({
        "127.0.0.1, true", "127.255.255.255, true", "127.1.2.3, true", "localhost, true", "::1, true",
        "127.300.0.1, false", "127.0.0.256, false", "127.0.999.1, false", "127.0.0.1.example.com, false",
        "128.0.0.1, false",
    })
    void aHostIsLoopbackOnlyWhenItIsALoopbackLiteral(String host, boolean loopback) {
        assertEquals(loopback, Targets.isLoopbackHost(host));
    }
}
