package dev.orderly.grpc;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Regression: {@code addresses(List.of("[]:9000"))} was taken, its empty host read as no host at all, so the client
 * dialed this machine's own port 9000; a host of blanks likewise. Refused naming the address, as any address that is
 * not {@code host:port}.
 */
class AnAddressWithAnEmptyHostIsRefusedTest {

    @ParameterizedTest
    @ValueSource(strings = {"[]:9000", " :9000", "[ ]:9000"})
    void anEmptyHostIsNotThisMachine(String address) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> GrpcTier2Client.builder().addresses(List.of("tier2-a:9000", address)));
        assertTrue(e.getMessage().contains("'" + address + "'"), e.getMessage());
    }
}
