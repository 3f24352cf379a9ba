package dev.orderly.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Tier2Call;
import dev.orderly.grpc.testing.LocalTier2;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Regression: a tier2 took bearer tokens that no client can ever send, and turned every call away.
 *
 * <ul>
 *   <li>A token file saved with a byte order mark (Windows editors, PowerShell 5's {@code Out-File -Encoding utf8};
 *       {@code kubectl create secret --from-file} keeps it): {@code Files.readAllLines} keeps U+FEFF at the start of
 *       the first line and {@code String.strip()} does not remove it (it is no whitespace), so the first token was
 *       U+FEFF followed by {@code s3cret}. The tier2 started; every client sending {@code s3cret} got
 *       {@code UNAUTHENTICATED} "bearer token not accepted", FATAL, with a file that looks right in every editor.
 *   <li>A token with a character outside printable ASCII: the client sends it in an ASCII header (grpc-java's
 *       {@code ASCII_STRING_MARSHALLER} encodes it as US-ASCII, so each such character goes as {@code ?}), and the
 *       tier2 compares UTF-8 bytes: it can never match. Accepted in silence by {@code readTokens} and
 *       {@code Tier2Server.Builder.bearerTokens}.
 * </ul>
 * A byte order mark is skipped; a token no header can carry is refused when it is given, naming the file and the
 * line, never the token.
 */
@Timeout(60)
class ATokenNoClientCanSendIsRefusedWhenReadTest {

    @TempDir
    Path dir;

    @Test
    void aTokenFileSavedWithAByteOrderMarkAdmitsTheClientThatSendsItsToken() throws Exception {
        Path file = Files.write(dir.resolve("tokens"), "\uFEFFs3cret\n".getBytes(StandardCharsets.UTF_8));
        List<String> tokens = Tier2Security.readTokens(file);
        try (LocalTier2 tier2 = LocalTier2.start(Tier2Server.builder().worker((job, work) -> { })
                .bearerTokens(tokens).drainGrace(Duration.ZERO), c -> c.bearerToken(() -> "s3cret"))) {
            // Before the fix: Tier2Exception FATAL "... UNAUTHENTICATED bearer token not accepted ..."
            try (Tier2Call call = tier2.client().dial(new Job("r", new JobKey(0, 0), 1))) {
                call.await();
            }
            assertEquals(1, tier2.server().jobsAdmitted());
        }
        assertEquals(List.of("s3cret"), tokens);
    }

    @Test
    void aTokenThatIsNotPrintableAsciiIsRefusedNamingTheFileAndLineNotTheToken() throws Exception {
        Path file = Files.writeString(dir.resolve("tokens"), "# rotation\nold-token\nn\u00e4chster\n",
                StandardCharsets.UTF_8);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Tier2Security.readTokens(file));
        assertTrue(e.getMessage().contains(file.toString()) && e.getMessage().contains("line 3"), e.getMessage());
        assertFalse(e.getMessage().contains("chster"), "a token is a secret: " + e.getMessage());
    }

    @Test
    void aBuilderRefusesATokenNoHeaderCanCarryWithoutQuotingIt() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Tier2Server.builder().bearerTokens(List.of("good", "p\u00e4sswort")));
        assertTrue(e.getMessage().startsWith("bearerTokens"), e.getMessage());
        assertFalse(e.getMessage().contains("sswort"), "a token is a secret: " + e.getMessage());
    }
}
