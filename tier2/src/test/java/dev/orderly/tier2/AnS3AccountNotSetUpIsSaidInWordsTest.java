package dev.orderly.tier2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Regression: a tier2 with {@code s3://} outputs on AWS S3 (no {@code --s3-endpoint}) on a machine with no AWS region
 * set said {@code tier2: software.amazon.awssdk.core.exception.SdkClientException: Unable to load region from any of
 * the providers in the chain software.amazon.awssdk.regions.providers.DefaultAwsRegionProviderChain@…: […]}, a Java
 * exception and the SDK's classes; with a region but no credentials, a line of the SDK's provider classes. Each is now
 * said in words: what is missing and where to set it, exit 1 as every failure to start.
 *
 * <p>Each runs the launcher in a child JVM whose environment has no AWS settings, a home with no {@code ~/.aws}, and
 * the instance metadata service disabled, so that nothing here asks the machine's network.
 */
@Timeout(120)
class AnS3AccountNotSetUpIsSaidInWordsTest {

    private static final List<String> AWS_SETTINGS = List.of("AWS_REGION", "AWS_DEFAULT_REGION", "AWS_PROFILE",
            "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_CONFIG_FILE",
            "AWS_SHARED_CREDENTIALS_FILE", "AWS_WEB_IDENTITY_TOKEN_FILE", "AWS_ROLE_ARN",
            "AWS_CONTAINER_CREDENTIALS_FULL_URI", "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI");

    @TempDir
    Path dir;

    private Tier2Child.Ended run(Map<String, String> env) throws Exception {
        Path home = Files.createDirectories(dir.resolve("home"));
        Map<String, String> all = new java.util.HashMap<>(env);
        all.put("HOME", home.toString());
        all.put("AWS_EC2_METADATA_DISABLED", "true");
        return Tier2Child.runToExit(dir.resolve("logs"), Duration.ofSeconds(60), all, AWS_SETTINGS,
                "--outputs=s3://orderly-outputs/requests", "--insecure-plaintext",
                "--worker=" + TestWorkers.Echo.class.getName());
    }

    @Test
    void noRegionIsSaidInWords() throws Exception {
        Tier2Child.Ended ended = run(Map.of());
        assertEquals(1, ended.code(), ended.err());
        assertEquals(1, ended.err().lines().count(), ended.err());
        assertTrue(ended.err().startsWith("tier2: no AWS region for s3://orderly-outputs on AWS S3: set AWS_REGION"),
                ended.err());
        assertFalse(ended.err().contains("Exception") || ended.err().contains("software.amazon"), ended.err());
    }

    @Test
    void noCredentialsAreSaidInWords() throws Exception {
        Tier2Child.Ended ended = run(Map.of("AWS_REGION", "eu-west-1"));
        assertEquals(1, ended.code(), ended.err());
        assertEquals(1, ended.err().lines().count(), ended.err());
        assertTrue(ended.err().startsWith("tier2: no AWS credentials for s3://orderly-outputs on AWS S3: set"
                + " AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY"), ended.err());
        assertFalse(ended.err().contains("Exception") || ended.err().contains("Provider"), ended.err());
    }
}
