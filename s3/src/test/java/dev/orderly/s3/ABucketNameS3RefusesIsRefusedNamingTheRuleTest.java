package dev.orderly.s3;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The bucket check took names S3 refuses for a general purpose bucket: two periods in a row, a name formatted as an IP
 * address, and the prefixes and suffixes S3 keeps for itself. They were found only when the bucket was first asked
 * (a tier2 at its start: exit 1 after connecting). Each is now refused by {@code S3OutputStore.Builder.bucket},
 * naming the rule and the value.
 */
@Timeout(30)
class ABucketNameS3RefusesIsRefusedNamingTheRuleTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "a..b|bucket must not have two periods in a row, was 'a..b'",
        "192.168.5.4|bucket must not be formatted as an IP address, was '192.168.5.4'",
        "10.20.30.40|bucket must not be formatted as an IP address, was '10.20.30.40'",
        "xn--bucket|bucket must not start with 'xn--' (S3 keeps it for itself), was 'xn--bucket'",
        "sthree-bucket|bucket must not start with 'sthree-' (S3 keeps it for itself), was 'sthree-bucket'",
        "amzn-s3-demo-bucket|bucket must not start with 'amzn-s3-demo-' (S3 keeps it for itself),"
                + " was 'amzn-s3-demo-bucket'",
        "bucket-s3alias|bucket must not end with '-s3alias' (S3 keeps it for itself), was 'bucket-s3alias'",
        "bucket--ol-s3|bucket must not end with '--ol-s3' (S3 keeps it for itself), was 'bucket--ol-s3'",
        "bucket.mrap|bucket must not end with '.mrap' (S3 keeps it for itself), was 'bucket.mrap'",
        "bucket--x-s3|bucket must not end with '--x-s3' (S3 keeps it for itself), was 'bucket--x-s3'",
        "bucket--table-s3|bucket must not end with '--table-s3' (S3 keeps it for itself), was 'bucket--table-s3'",
    })
    void theRuleAndTheNameAreSaid(String bucket, String expected) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> S3OutputStore.builder().bucket(bucket));
        assertEquals(expected, e.getMessage());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"a.b.c", "logs.2024", "123", "1.2.3", "1.2.3.4.5", "my-xn--bucket", "s3alias-bucket",
        "bucket-s3alias2", "bucket.mrap.x", "sthree", "ol-s3", "a-b.c-d"})
    void aNameThatOnlyLooksLikeOneOfThemIsTaken(String bucket) {
        assertDoesNotThrow(() -> S3OutputStore.builder().bucket(bucket));
    }
}
