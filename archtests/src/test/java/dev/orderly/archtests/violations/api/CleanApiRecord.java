package dev.orderly.archtests.violations.api;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/** Good: a record with validation, using only the JDK (arrays and primitives included). */
public record CleanApiRecord(String name, Duration delay, byte[] payload, long[] segments) {
    public CleanApiRecord {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(delay, "delay");
        if (delay.isNegative()) {
            throw new IllegalArgumentException("delay must be >= 0, was " + delay);
        }
    }

    public Optional<byte[]> firstPayload() {
        return Optional.ofNullable(payload);
    }
}
