package dev.orderly.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Regression: the guide to your own tier2 (section 4) sends a worker's tests to {@code S3ProxyFixture} "from
 * {@code orderly-s3}'s test jar", and the BOM manages that jar, but a test jar brings none of its module's test
 * dependencies: a project that imports the BOM and takes the jar, as the guide says, compiled and then failed at
 * {@code S3ProxyFixture.start} with {@code NoClassDefFoundError: org/jclouds/ContextBuilder} (tried in a fresh Maven
 * project, offline). S3Proxy ({@code org.gaul:s3proxy}) must be taken beside it, at the version the fixture is built
 * against, which the BOM can not manage (it manages Orderly's artifacts only) and the guide did not say.
 */
class TheGuideSaysWhatS3ProxyFixtureNeedsTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @Test
    void theGuideNamesS3ProxyAtTheVersionTheFixtureIsBuiltAgainst() throws Exception {
        Matcher property = Pattern.compile("<s3proxy\\.version>([^<]+)</s3proxy\\.version>")
                .matcher(Files.readString(ROOT.resolve("pom.xml")));
        assertTrue(property.find(), "the build's s3proxy.version");
        String version = property.group(1).strip();
        assertTrue(Files.readString(ROOT.resolve("s3/src/test/java/dev/orderly/s3/S3ProxyFixture.java"))
                .contains("import org.gaul.s3proxy."), "S3ProxyFixture is built on S3Proxy");

        String guide = Files.readString(ROOT.resolve("docs/guide/run-your-own-tier2.md"));
        assertTrue(guide.contains("S3ProxyFixture"), "the guide offers S3ProxyFixture");
        Matcher s3proxy = Pattern.compile("<groupId>org\\.gaul</groupId>\\s*<artifactId>s3proxy</artifactId>\\s*"
                + "<version>([^<]+)</version>").matcher(guide);
        assertTrue(s3proxy.find(), "docs/guide/run-your-own-tier2.md offers S3ProxyFixture from orderly-s3's test jar"
                + " but does not say to take org.gaul:s3proxy with it, which the test jar does not bring");
        assertEquals(version, s3proxy.group(1).strip(), "the guide's s3proxy version is not the one S3ProxyFixture is"
                + " built against");
    }
}
