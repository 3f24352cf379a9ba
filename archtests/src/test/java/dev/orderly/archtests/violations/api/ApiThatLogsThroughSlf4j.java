package dev.orderly.archtests.violations.api;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Bad: the api would drag SLF4J into every embedder's compile class path. */
public final class ApiThatLogsThroughSlf4j {
    private static final Logger LOG = LoggerFactory.getLogger(ApiThatLogsThroughSlf4j.class);

    public void validate(int value) {
        LOG.debug("validating {}", value);
    }
}
