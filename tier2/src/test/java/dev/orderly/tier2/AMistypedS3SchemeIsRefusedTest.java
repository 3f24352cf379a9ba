package dev.orderly.tier2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Regression: a mistyped scheme ({@code S3://outputs/requests}, {@code s3:/outputs/requests}) was taken for a local
 * directory of that name, so the outputs went to the tier2's disk, where the tier1 never looked. The scheme is read
 * without regard to case, and any other {@code SCHEME:/...} is refused: only s3:// URIs and local directories are
 * taken.
 */
class AMistypedS3SchemeIsRefusedTest {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"S3://outputs/requests", "s3://outputs/requests", "S3://outputs/requests/"})
    void anUpperCaseSchemeIsS3(String value) {
        OutputLocation l = OutputLocation.parse(value);
        assertTrue(l.isS3(), value);
        assertEquals("outputs", l.bucket());
        assertEquals("requests/", l.prefix());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"s3:/outputs/requests", "S3:/outputs/requests", "s3:outputs/requests", "s3:///outputs",
        "s4://outputs/requests", "gs://outputs/requests", "file:///tmp/outputs", "http://127.0.0.1:9000/outputs"})
    void anyOtherUriIsRefusedNamingOutputs(String value) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> OutputLocation.parse(value));
        assertTrue(e.getMessage().startsWith("--outputs=" + value), e.getMessage());
        assertEquals(1, e.getMessage().lines().count(), e.getMessage());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"s3:/outputs/requests", "gs://outputs/requests", "file:///tmp/outputs"})
    void theMessageSaysWhatIsTaken(String value) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> OutputLocation.parse(value));
        assertTrue(e.getMessage().contains("only s3:// URIs or local directories"), e.getMessage());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"target/outputs", "/tmp/orderly-outputs", "./outputs", "outputs:old/requests",
        "target/a:b/c", "target/s3/outputs"})
    void pathsAreStillDirectories(String value) {
        OutputLocation l = OutputLocation.parse(value);
        assertEquals(Path.of(value), l.directory());
    }
}
