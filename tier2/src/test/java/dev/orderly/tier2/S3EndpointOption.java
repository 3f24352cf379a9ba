package dev.orderly.tier2;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** The runs of the launcher with a bad {@code --s3-endpoint}, which its tests share. */
final class S3EndpointOption {

    private S3EndpointOption() {
    }

    /**
     * Runs the launcher with outputs in S3 at {@code endpoint}, checks that it is refused as a bad option named
     * {@code --s3-endpoint} (exit 2, one line, no output) and returns that line.
     */
    static String s3EndpointLine(String endpoint) {
        String said = Tier2MainTest.badOptionLine("--outputs=s3://bucket/requests", "--s3-endpoint=" + endpoint,
                "--worker=" + TestWorkers.Echo.class.getName());
        assertTrue(said.startsWith("tier2: --s3-endpoint"), said);
        return said;
    }
}
