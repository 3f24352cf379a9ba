package dev.orderly.tier2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Regression: with {@code s3://} outputs, the AWS region and credentials were looked for before the worker's options
 * were read, so a mistyped worker option on a machine not yet set up for AWS was not named: the tier2 said "no AWS
 * credentials" (or "no AWS region"), exit 1, and only once that was set up, "unknown option", exit 2. Every option,
 * the worker's included, is now checked before the S3 account is asked: a bad one is exit 2 naming it.
 *
 * <p>Each runs the launcher in a child JVM whose environment has no AWS settings, a home with no {@code ~/.aws}, and
 * the instance metadata service disabled, so that nothing here asks the machine's network.
 */
@Timeout(120)
class AWorkerOptionIsNamedBeforeMissingAwsSettingsTest {

    private static final List<String> AWS_SETTINGS = List.of("AWS_REGION", "AWS_DEFAULT_REGION", "AWS_PROFILE",
            "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_CONFIG_FILE",
            "AWS_SHARED_CREDENTIALS_FILE", "AWS_WEB_IDENTITY_TOKEN_FILE", "AWS_ROLE_ARN",
            "AWS_CONTAINER_CREDENTIALS_FULL_URI", "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI");

    @TempDir
    Path dir;

    @ParameterizedTest(name = "region set: {0}")
    @ValueSource(booleans = {true, false})
    void aMistypedWorkerOptionIsExit2NamingIt(boolean regionSet) throws Exception {
        Path home = Files.createDirectories(dir.resolve("home"));
        Map<String, String> env = new HashMap<>();
        env.put("HOME", home.toString());
        env.put("AWS_EC2_METADATA_DISABLED", "true");
        if (regionSet) {
            env.put("AWS_REGION", "eu-west-1");
        }
        Tier2Child.Ended ended = Tier2Child.runToExit(dir.resolve("logs"), Duration.ofSeconds(60), env, AWS_SETTINGS,
                "--outputs=s3://orderly-outputs/requests", "--worker=" + TestWorkers.Provider.class.getName(),
                "--greting=hi");
        assertEquals(2, ended.code(), ended.err());
        assertEquals(1, ended.err().lines().count(), ended.err());
        assertTrue(ended.err().contains("unknown option '--greting=hi'"), ended.err());
    }
}
