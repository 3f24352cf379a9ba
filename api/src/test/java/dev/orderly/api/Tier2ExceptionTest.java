package dev.orderly.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.orderly.api.Tier2Exception.Kind;
import java.io.IOException;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link Tier2Exception}: each factory's kind, which kinds never ran, messages and causes. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class Tier2ExceptionTest {

    private static final IOException CAUSE = new IOException("stream reset");

    @Test
    void eachFactoryGivesItsKind() {
        assertEquals(Kind.REFUSED, Tier2Exception.refused("full").kind());
        assertEquals(Kind.UNREACHABLE, Tier2Exception.unreachable("no upstream").kind());
        assertEquals(Kind.EXECUTION_TIMEOUT, Tier2Exception.executionTimeout("deadline").kind());
        assertEquals(Kind.RETRYABLE, Tier2Exception.retryable("reset", CAUSE).kind());
        assertEquals(Kind.FATAL, Tier2Exception.fatal("bad input", CAUSE).kind());
    }

    @Test
    void onlyRefusedAndUnreachableNeverRan() {
        Set<Kind> neverRan = Stream.of(
                        Tier2Exception.refused("m"), Tier2Exception.unreachable("m"),
                        Tier2Exception.executionTimeout("m"), Tier2Exception.retryable("m", null),
                        Tier2Exception.fatal("m", null))
                .filter(Tier2Exception::neverRan)
                .map(Tier2Exception::kind)
                .collect(Collectors.toCollection(() -> EnumSet.noneOf(Kind.class)));
        assertEquals(EnumSet.of(Kind.REFUSED, Kind.UNREACHABLE), neverRan);
    }

    @Test
    void theKindsAreExactlyTheFiveOfTheDesign() {
        assertEquals(EnumSet.allOf(Kind.class), EnumSet.of(Kind.REFUSED, Kind.UNREACHABLE, Kind.EXECUTION_TIMEOUT,
                Kind.RETRYABLE, Kind.FATAL));
    }

    @Test
    void theMessageAndTheCauseAreKept() {
        Tier2Exception retryable = Tier2Exception.retryable("stream reset by tier2-3", CAUSE);
        assertEquals("stream reset by tier2-3", retryable.getMessage());
        assertSame(CAUSE, retryable.getCause());
        assertSame(CAUSE, Tier2Exception.fatal("bad", CAUSE).getCause());
        assertNull(Tier2Exception.refused("full").getCause());
        assertNull(Tier2Exception.retryable("reset", null).getCause());
    }

    @Test
    void aNullMessageIsRejectedByEveryFactory() {
        Stream.<Function<String, Tier2Exception>>of(
                        Tier2Exception::refused, Tier2Exception::unreachable, Tier2Exception::executionTimeout,
                        m -> Tier2Exception.retryable(m, CAUSE), m -> Tier2Exception.fatal(m, CAUSE))
                .forEach(factory -> {
                    NullPointerException e = assertThrows(NullPointerException.class, () -> factory.apply(null));
                    assertEquals("message", e.getMessage());
                });
    }
}
