package dev.orderly.archtests.violations.api;

import io.micrometer.core.instrument.Tag;

/** Bad: an api type that hands out a Micrometer tag. */
public record ApiThatTagsWithMicrometer(String outcome) {
    public Tag tag() {
        return Tag.of("outcome", outcome);
    }
}
