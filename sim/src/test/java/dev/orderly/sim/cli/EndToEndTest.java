package dev.orderly.sim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.sim.report.ComparisonTable;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;

@Timeout(60)
class EndToEndTest {

    @Test
    void theDefaultScenarioScaledDownRunsAllFiveRunsPrintsTheTableAndWritesThePicture(@TempDir Path dir)
            throws Exception {
        Path picture = dir.resolve("out/timeline.svg");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        // The default scenario's shape (4 tenants x 20 workers on 4 x 4 slots, faults on), 20 segments, at 100x.
        int code = OrderlyCommand.execute(new String[] {"--segments=20", "--time-scale=100", "-o", picture.toString()},
                new PrintWriter(out, true), new PrintWriter(err, true), false);
        String text = out.toString();
        assertEquals(0, code, text + err);
        // At 100x a loaded machine may fall behind; that is a warning, nothing else may reach stderr.
        assertTrue(err.toString().lines().allMatch(l -> l.startsWith("orderly: warning: the ")), err.toString());
        for (String run : new String[] {"run 1/5: ordered", "run 2/5: unordered", "run 3/5: oracle",
            "run 4/5: ordered + waiting room", "run 5/5: mixed"}) {
            assertTrue(text.contains(run), run + " in\n" + text);
        }
        assertTrue(text.contains("delivered 80/80"), "a plain progress line at the end of a run:\n" + text);
        assertTrue(text.lines().anyMatch(l -> l.startsWith("strategy") && l.contains("first segment")), text);
        for (String row : new String[] {"ordered ", "unordered ", "oracle ", "ordered + waiting room ",
            "mixed: 1 ordered + waiting room ", "mixed: 3 unordered ", ComparisonTable.RATIO_LABEL + " ",
            ComparisonTable.ORACLE_RATIO_LABEL + " ", ComparisonTable.WAITING_ORACLE_RATIO_LABEL + " "}) {
            assertTrue(text.lines().anyMatch(l -> l.startsWith(row)), "row " + row + " in\n" + text);
        }
        assertTrue(text.contains("mixed run: the ordered tenant"), text);
        assertTrue(text.contains("picture: " + picture.toAbsolutePath().normalize()), text);
        Document svg = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(Files.newInputStream(picture));
        assertEquals("svg", svg.getDocumentElement().getTagName());
    }

    @Test
    void aRequestFailedByAFatalFaultIsReportedAndTheExitCodeIs1(@TempDir Path dir) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = OrderlyCommand.execute(new String[] {"--segments=10", "--time-scale=100", "--strategy=ordered",
            "--fatal-rate=0.2", "-q", "-o", dir.resolve("t.svg").toString()},
                new PrintWriter(out, true), new PrintWriter(err, true), false);
        assertEquals(1, code, out.toString());
        assertTrue(out.toString().contains("req failed"), out.toString());
        assertTrue(out.toString().lines().anyMatch(l -> l.startsWith("ordered run: tenant-") && l.contains("fatal")),
                out.toString());
    }
}
