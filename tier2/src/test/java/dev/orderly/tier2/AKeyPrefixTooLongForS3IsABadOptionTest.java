package dev.orderly.tier2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.s3.S3OutputStore;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Regression: an {@code s3://} key prefix longer than {@code S3OutputStore} takes was accepted at start; then every
 * job's write threw IllegalArgumentException from {@code S3OutputStore.Builder.prefix}, a retryable failure to the
 * tier1, which ran the job again for ever. The prefix is held to that rule at start, with room for the longest
 * request id (100 characters) and its {@code /}, so that no job's prefix can break it.
 */
class AKeyPrefixTooLongForS3IsABadOptionTest {

    private static final String LONGEST_ID = "r".repeat(100);

    @ParameterizedTest(name = "a prefix of {0} characters")
    @ValueSource(ints = {799, 850, 899, 900, 950, 5000})
    void aPrefixWithNoRoomForARequestIdIsRefusedNamingOutputs(int length) {
        String value = "s3://outputs/" + "p".repeat(length);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> OutputLocation.parse(value));
        assertTrue(e.getMessage().startsWith("--outputs=s3://outputs/ppp"), e.getMessage());
        assertTrue(e.getMessage().contains("too long"), e.getMessage());
        assertEquals(1, e.getMessage().lines().count(), e.getMessage());
    }

    @Test
    void theLongestPrefixTakenStillFitsTheLongestRequestId() throws Exception {
        OutputLocation l = OutputLocation.parse("s3://outputs/" + "p".repeat(798));
        assertEquals(799, l.prefix().length());
        S3OutputStore.builder().prefix(l.prefix() + OutputLocation.checked(LONGEST_ID) + "/"); // no throw
    }

    @Test
    void theProcessExitsWithTwoAndOneLine() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Tier2Main.execute(new String[] {"--outputs=s3://outputs/" + "p".repeat(950),
            "--worker=" + TestWorkers.Echo.class.getName()}, new PrintWriter(out, true), new PrintWriter(err, true));
        assertEquals(2, code, err.toString());
        assertEquals(1, err.toString().strip().lines().count(), err.toString());
        assertTrue(err.toString().startsWith("tier2: --outputs=s3://outputs/ppp"), err.toString());
    }
}
