package dev.orderly.tier2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Found in review (a doc defect): docs/guide/run-your-own-tier2.md told the tier1 to read a tier2's
 * {@code --outputs=s3://BUCKET/PREFIX} with {@code prefix("PREFIX/" + R + "/")}, but {@code OutputLocation} adds the
 * {@code /} only after a non-empty PREFIX that lacks one. With {@code s3://outputs/requests/} the tier2 writes request
 * R under {@code requests/R/} while that formula reads {@code requests//R/}: every read is a 404, so empty, the first
 * segment is re-run three times and the request fails "output missing"; with {@code s3://outputs} the formula gives
 * {@code "/R/"}, which {@code S3OutputStore.Builder.prefix} refuses. This pins where the tier2 writes for each spelling,
 * which the corrected table states, and that the guide no longer gives the old formula.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class TheGuidesS3PrefixIsWhereTheTier2WritesTest {

    private static final Path GUIDE = Path.of("..", "docs", "guide", "run-your-own-tier2.md").toAbsolutePath()
            .normalize();

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "s3://outputs/requests|requests/",
        "s3://outputs/requests/|requests/",
        "s3://outputs/a/b|a/b/",
        "s3://outputs|''",
        "s3://outputs/|''",
        "s3://outputs/my%20runs|my runs/"})
    void theTier2PutsRequestRUnderPThenR(String outputs, String p) {
        OutputLocation location = OutputLocation.parse(outputs);
        assertEquals("outputs", location.bucket());
        assertEquals(p, location.prefix(), "P of " + outputs);
    }

    @Test
    void theGuideGivesTheTier1TheSamePrefix() throws Exception {
        String guide = Files.readString(GUIDE);
        assertFalse(guide.contains("prefix(\"PREFIX/\" + R + \"/\")"),
                "the guide still tells the tier1 to add a / to a PREFIX that may end with one");
        assertTrue(guide.contains("prefix(P + R + \"/\")"), "the guide no longer says how the tier1 reads request R");
        assertTrue(guide.contains("`s3://outputs/requests` and `s3://outputs/requests/` both put request `R` under"),
                "the guide does not say that a trailing / of PREFIX is not doubled");
    }
}
