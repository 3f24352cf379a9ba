package dev.orderly.tier2;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.grpc.JobOutputs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Regression: with {@code --outputs=DIR}, a job's write makes the request's directory {@code DIR/R} first, and when
 * that failed (a file in the way, no space or inodes left, permissions changed since the start) the write threw
 * {@code UncheckedIOException}. {@code JobContext.writeOutput} and {@code JobOutputs.write} say a store that fails
 * throws {@link IOException}: a worker that catches it to handle a failed write (write elsewhere, report it) missed
 * this one, the failure a request's first write meets. It is an {@code IOException} naming the directory now.
 */
class ARequestDirectoryThatCanNotBeMadeIsAnIOExceptionTest {

    @Test
    void aFileWhereTheRequestsDirectoryGoesFailsTheWriteWithAnIOExceptionNamingIt(@TempDir Path dir)
            throws Exception {
        Files.writeString(dir.resolve("r-1"), "in the way");
        JobOutputs outputs = OutputLocation.parse(dir.toString()).inDirectory();

        IOException e = assertThrows(IOException.class, () -> outputs.write("r-1", 0, new byte[] {1}),
                "JobOutputs.write: @throws IOException if the store fails");
        assertTrue(e.getMessage().contains(dir.resolve("r-1").toString()), e.getMessage());
    }
}
