package dev.orderly.grpc;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every duration setting of the two builders is counted in nanoseconds where it is used (gRPC's deadlines and
 * keepalives, the JDK's timed waits and timers), so one over {@link Long#MAX_VALUE} nanoseconds (about 292 years,
 * what someone who means "no limit" may write, e.g. {@code ChronoUnit.FOREVER.getDuration()}) must be refused when it
 * is given, naming the setting and the value, as every other bad value is.
 *
 * <p>The bug: they were taken, and overflowed later with a bare {@code ArithmeticException: long overflow}: at
 * {@code build()} (client admissionTimeout and keepAlive, server loadStatusDelay and the room's maxWait), at every
 * dial (callTimeout), as each admitted job started (executionTimeout: the call ended UNKNOWN after {@code Admitted},
 * RETRYABLE for a job that never ran, and its slot was never given back, so the tier2 filled up for good), or in
 * {@code close()} (drainGrace: the server was left draining and never stopped).
 */
class ADurationTooLongToCountIsRefusedByNameTest {

    private static final Duration FOREVER = Duration.ofDays(200_000); // about 548 years

    static Stream<Arguments> settings() {
        return Stream.of(
                client("callTimeout", b -> b.callTimeout(FOREVER)),
                client("admissionTimeout", b -> b.admissionTimeout(FOREVER)),
                client("keepAlive time", b -> b.keepAlive(FOREVER, Duration.ofSeconds(5))),
                client("keepAlive timeout", b -> b.keepAlive(Duration.ofSeconds(10), FOREVER)),
                server("executionTimeout", b -> b.executionTimeout(FOREVER)),
                server("drainGrace", b -> b.drainGrace(FOREVER)),
                server("permitKeepAlive", b -> b.permitKeepAlive(FOREVER)),
                server("keepAlive time", b -> b.keepAlive(FOREVER, Duration.ofSeconds(5))),
                server("keepAlive timeout", b -> b.keepAlive(Duration.ofSeconds(10), FOREVER)),
                server("loadStatusDelay", b -> b.loadStatusDelay(FOREVER)),
                server("waitingRoom maxWait", b -> b.waitingRoom(4, FOREVER)));
    }

    private static Arguments client(String name, Consumer<GrpcTier2Client.Builder> set) {
        return Arguments.of(name, (Runnable) () -> {
            GrpcTier2Client.Builder b = GrpcTier2Client.builder().target("127.0.0.1:9000");
            set.accept(b);
            b.build().close(); // only reached if the setter took it: build() must not fail instead
        });
    }

    private static Arguments server(String name, Consumer<Tier2Server.Builder> set) {
        return Arguments.of(name, (Runnable) () -> {
            Tier2Server.Builder b = Tier2Server.builder().worker((job, work) -> { });
            set.accept(b);
            b.build().close();
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("settings")
    void isRefusedWhenGivenNamingTheSettingAndTheValue(String name, Runnable give) {
        Throwable e = assertThrows(Throwable.class, give::run);
        assertTrue(e instanceof IllegalArgumentException && e.getMessage().startsWith(name + " must be")
                && e.getMessage().contains("was " + FOREVER), name + ": " + e);
    }
}
