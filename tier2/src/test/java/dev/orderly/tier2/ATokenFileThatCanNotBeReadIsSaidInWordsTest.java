package dev.orderly.tier2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Regression: a {@code --token-file} the launcher could not read was said with Java's exception in the middle of the
 * line, the path twice ({@code tier2: cannot read the token file /etc/orderly/token/tokens:
 * java.nio.file.NoSuchFileException: /etc/orderly/token/tokens (see --help)}), and a file that is not UTF-8 said
 * only {@code java.nio.charset.MalformedInputException: Input length = 1}. Every other refusal of the launcher is in
 * its own words; this one is too, still exit 2 naming the file. (The tests that pinned the old line only looked for
 * the path in it.)
 */
@Timeout(60)
class ATokenFileThatCanNotBeReadIsSaidInWordsTest {

    @TempDir
    Path dir;

    private String refusal(Path tokenFile) {
        StringWriter err = new StringWriter();
        int code = Tier2Main.execute(new String[] {"--outputs=" + dir.resolve("out"),
            "--worker=" + TestWorkers.Echo.class.getName(), "--token-file=" + tokenFile},
                new PrintWriter(new StringWriter(), true), new PrintWriter(err, true));
        assertEquals(2, code, err.toString());
        assertEquals(1, err.toString().strip().lines().count(), err.toString());
        assertTrue(err.toString().contains(tokenFile.toString()), err.toString());
        assertFalse(err.toString().contains("java.") || err.toString().contains("Exception"),
                "Java's exception is no words for a person: " + err);
        return err.toString();
    }

    @Test
    void aMissingTokenFileIsSaidInWords() {
        String said = refusal(dir.resolve("no-such-tokens"));
        assertTrue(said.contains("no such file"), said);
    }

    @Test
    void aTokenFileThatIsNotUtf8IsSaidInWords() throws Exception {
        Path latin1 = Files.write(dir.resolve("tokens"), new byte[] {'t', 'o', 'k', (byte) 0xE9, 'n', '\n'});
        String said = refusal(latin1);
        assertTrue(said.contains("UTF-8"), said);
    }
}
