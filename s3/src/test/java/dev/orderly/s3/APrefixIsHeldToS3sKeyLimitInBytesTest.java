package dev.orderly.s3;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * S3 takes keys of at most 1,024 bytes of UTF-8, not characters. The builder's limit on the prefix (900, leaving room
 * for {@code segment-%020d.out}) exists so that every key of the store fits: a prefix of fewer than 900 characters
 * but more than 900 bytes ({@code requests/日本/...}) was taken, and every write of the store then failed.
 */
class APrefixIsHeldToS3sKeyLimitInBytesTest {

    private static final int S3_KEY_LIMIT_BYTES = 1024;

    @Test
    void aPrefixOfFewCharactersButTooManyBytesIsRefusedNamingIt() {
        String prefix = "日".repeat(400) + "/"; // 401 characters, 1,201 bytes of UTF-8
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> S3OutputStore.builder().prefix(prefix),
                "a prefix whose every key is over S3's 1,024 bytes was taken");
        assertTrue(e.getMessage().contains("prefix") && e.getMessage().contains("900"), e.getMessage());
    }

    @Test
    void everyKeyOfAPrefixTakenFitsS3() {
        try (S3Client client = S3Clients.create(java.net.URI.create("http://127.0.0.1:9"), null)) {
            for (String prefix : new String[] {"a".repeat(900), "é".repeat(450), "日".repeat(300), "𝄞".repeat(225)}) {
                S3OutputStore store = S3OutputStore.builder().client(client).bucket("outputs").prefix(prefix).build();
                int bytes = store.keyOf(Long.MAX_VALUE).getBytes(UTF_8).length;
                assertTrue(bytes <= S3_KEY_LIMIT_BYTES, "a key of " + bytes + " bytes, for a prefix of "
                        + prefix.length() + " characters");
            }
        }
    }
}
