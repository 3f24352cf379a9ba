package dev.orderly.examples.embedding;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.orderly.api.RequestResult;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(60)
class InProcessEmbeddingTest {

    @Test
    void theExampleDeliversEverySegmentInOrderThroughAFleetOfThreeSlots(@TempDir Path outputs) throws Exception {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        RequestResult result = InProcessEmbedding.run(outputs,
                new PrintStream(printed, true, StandardCharsets.UTF_8));

        List<String> expected = IntStream.range(0, 40).mapToObj(s -> "segment " + s + ", computed in-process")
                .toList();
        assertEquals(expected, printed.toString(StandardCharsets.UTF_8).lines().toList());
        assertEquals(40, result.segmentsDelivered());
    }

    @Test
    void itsMainRuns() throws Exception {
        PrintStream stdout = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            InProcessEmbedding.main(new String[0]);
        } finally {
            System.setOut(stdout);
        }
        List<String> lines = printed.toString(StandardCharsets.UTF_8).lines().toList();
        assertEquals("segment 39, computed in-process", lines.get(39));
        assertEquals(true, lines.get(40).contains("segmentsDelivered=40"), lines.get(40));
    }
}
