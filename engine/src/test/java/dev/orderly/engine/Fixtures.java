package dev.orderly.engine;

import dev.orderly.api.EngineConfig;
import java.time.Duration;
import java.util.List;
import java.util.stream.LongStream;

/** Shared settings for engine tests: small delays keep the suite fast on a busy machine. */
public final class Fixtures {

    private Fixtures() {
    }

    /** Ordered launch with 2 ms refused and 20 ms failure delays. */
    public static EngineConfig fast() {
        return EngineConfig.builder()
                .refusedDelay(Duration.ofMillis(2))
                .failureDelay(Duration.ofMillis(20))
                .build();
    }

    /** The unordered baseline with the same delays. */
    public static EngineConfig fastUnordered() {
        return fast().toBuilder().ordered(false).build();
    }

    public static List<Long> range(long start, long end) {
        return LongStream.range(start, end).boxed().toList();
    }
}
