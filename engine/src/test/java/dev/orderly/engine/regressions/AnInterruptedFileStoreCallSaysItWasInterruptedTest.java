package dev.orderly.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.engine.FileOutputStore;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A read of {@link FileOutputStore} cut by an interrupt (the file channel closes, Java's
 * {@code ClosedByInterruptException}, which has no message) said "input/output error": a user would look for a bad
 * disk. It says the thread was interrupted.
 */
@Timeout(10)
class AnInterruptedFileStoreCallSaysItWasInterruptedTest {

    @Test
    void aReadOnAnInterruptedThreadSaysSo(@TempDir Path dir) throws IOException {
        FileOutputStore store = new FileOutputStore(dir);
        store.write(0, new byte[] {1, 2, 3});
        Thread.currentThread().interrupt();
        try {
            IOException e = assertThrows(IOException.class, () -> store.read(0));
            assertTrue(e.getMessage().contains("interrupted"), e.getMessage());
        } finally {
            Thread.interrupted();
        }
    }
}
