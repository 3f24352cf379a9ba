package dev.orderly.tier2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Regression: {@code --outputs=s3://} (and any s3 URL Java's URI parser refuses, a space in it, say) passed the
 * parser's own text on: {@code is not an s3://BUCKET/PREFIX URL: Expected authority at index 5: s3://}. It now says
 * what is taken, as a URL with no bucket does.
 */
class AnS3UrlJavaCannotParseIsSaidInWordsTest {

    @ParameterizedTest
    @ValueSource(strings = {"s3://", "s3:///prefix"})
    void noBucketIsSaidSo(String value) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> OutputLocation.parse(value));
        assertEquals("--outputs=" + value + " must be s3://BUCKET/PREFIX (a bucket name, then an optional key"
                + " prefix)", e.getMessage());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '#', value = {"s3://my bucket/p#8", "s3://b/p q^#9"})
    void aCharacterAUrlCannotHoldIsNamedByItsPlace(String value, String where) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> OutputLocation.parse(value));
        assertEquals("--outputs=" + value + " must be s3://BUCKET/PREFIX (a bucket name, then an optional key"
                + " prefix), a URL: character " + where + " cannot be in one", e.getMessage());
    }
}
