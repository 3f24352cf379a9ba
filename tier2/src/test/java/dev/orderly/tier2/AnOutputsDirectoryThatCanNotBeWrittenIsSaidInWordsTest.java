package dev.orderly.tier2;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.Request;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestPlan;
import dev.orderly.engine.FileOutputStore;
import dev.orderly.engine.Orderly;
import dev.orderly.grpc.GrpcTier2Client;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Regression: {@code FileOutputStore} put Java's exception into its messages ({@code can not create output directory
 * DIR/r-1: java.nio.file.FileAlreadyExistsException: DIR/r-1}, {@code can not write ...:
 * java.nio.file.DirectoryNotEmptyException: ...}), and the engine put the store's own class before them ({@code giving
 * up: java.io.IOException: can not read ...}). Through {@code Tier2Main --outputs=DIR} the tier2's words are the job's
 * failure reason, so the tier1's "giving up" line, the one a person running a tier1 reads, carried two or three Java
 * class names. Both sides now say why in words, naming the path.
 */
@Timeout(180)
class AnOutputsDirectoryThatCanNotBeWrittenIsSaidInWordsTest {

    private static final Pattern JAVA_NAME = Pattern.compile("java\\.[a-z]+\\.|[A-Za-z]+Exception");

    @TempDir
    Path dir;

    private static EngineConfig quick() {
        return EngineConfig.defaults().toBuilder().maxFailures(2).failureDelay(Duration.ofMillis(10))
                .refusedDelay(Duration.ofMillis(10)).build();
    }

    /** Runs request {@code id} of one segment on a tier2 writing to {@code outputs}; the tier1 reads {@code read}. */
    private String givingUpLine(Path outputs, String id, Path read) throws Exception {
        try (Tier2Child t = Tier2Child.start(dir.resolve("logs"), Map.of(), "--outputs=" + outputs,
                "--worker=" + TestWorkers.Echo.class.getName());
             GrpcTier2Client client = GrpcTier2Client.builder().addresses(List.of(t.address())).build()) {
            RequestFailedException e = assertThrows(RequestFailedException.class, () -> Orderly.engine(quick())
                    .run(Request.of(new RequestPlan(0, 1, 1, 1), client, new FileOutputStore(read),
                            (segment, output) -> { }).withId(id)));
            return e.getMessage();
        }
    }

    @Test
    void aRequestWhoseDirectoryCanNotBeMadeIsSaidInWords() throws Exception {
        Path outputs = Files.createDirectories(dir.resolve("out"));
        Files.writeString(outputs.resolve("r-1"), "a file where the request's directory goes");
        String line = givingUpLine(outputs, "r-1", dir.resolve("elsewhere"));
        assertTrue(line.contains(outputs.resolve("r-1").toString()), line);
        assertFalse(JAVA_NAME.matcher(line).find(), "a Java class name reaches the tier1's user: " + line);
    }

    @Test
    void anOutputThatCanNotBeMovedIntoPlaceIsSaidInWords() throws Exception {
        Path outputs = Files.createDirectories(dir.resolve("out"));
        Path blocked = Files.createDirectories(outputs.resolve("r-2").resolve("segment-0.out"));
        Files.writeString(blocked.resolve("keep"), "a directory, not empty, where the output goes");
        String line = givingUpLine(outputs, "r-2", dir.resolve("elsewhere"));
        assertTrue(line.contains(blocked.toString()), line);
        assertFalse(JAVA_NAME.matcher(line).find(), "a Java class name reaches the tier1's user: " + line);
    }

    @Test
    void anOutputTheTier1CanNotReadIsSaidInWords() throws Exception {
        // The tier2 writes well; the tier1's own store has a directory where segment 0's file is.
        Path outputs = Files.createDirectories(dir.resolve("out"));
        Path read = Files.createDirectories(dir.resolve("read"));
        Files.createDirectories(read.resolve("segment-0.out"));
        String line = givingUpLine(outputs, "r-3", read);
        assertTrue(line.contains(read.resolve("segment-0.out").toString()), line);
        assertFalse(JAVA_NAME.matcher(line).find(), "a Java class name reaches the tier1's user: " + line);
    }
}
