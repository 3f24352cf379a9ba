package dev.orderly.grpc;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class TargetsTest {

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1:9000", "localhost:1", "dns:///tier2.internal:65535", "dns:///tier2.internal",
            "dns://8.8.8.8/tier2.internal:9000", "[::1]:9000", "::1", "xds:///anything", "unix:/tmp/tier2.sock"})
    void targetsGrpcCanDialPass(String target) {
        assertDoesNotThrow(() -> Targets.check(target));
    }

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1:99999", "127.0.0.1:0", "dns:///h:70000", "h:port", "h:", "[::1]:0", ":9000",
            "dns:///:9000"})
    void targetsThatWouldBlockEveryDialFailNamingTheTarget(String target) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Targets.check(target));
        assertEquals(true, e.getMessage().contains("'" + target + "'"), e.getMessage());
    }

    @ParameterizedTest
    @CsvSource({"127.0.0.1:9000,true", "127.9.8.7:1,true", "localhost:9000,true", "LOCALHOST:9000,true",
            "dns:///localhost:9000,true", "[::1]:9000,true", "unix:/tmp/s,true", "10.0.0.5:9000,false",
            "0.0.0.0:9000,false", "dns:///tier2.internal:9000,false", "localhost.example.com:9000,false",
            "xds:///localhost:9000,false", "128.0.0.1:9000,false"})
    void loopbackIsOnlyWhatSurelyStaysOnThisMachine(String target, boolean loopback) {
        assertEquals(loopback, Targets.isLoopback(target));
    }
}
