package dev.orderly.sim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.w3c.dom.Document;

@Timeout(60)
class SweepCommandTest {

    private record Outcome(int code, String out, String err) {
    }

    private static Outcome run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = OrderlyCommand.execute(args, Map.of(), new PrintWriter(out, true), new PrintWriter(err, true),
                false);
        return new Outcome(code, out.toString(), err.toString());
    }

    @Test
    void aSmallSweepRunsTheFourStrategiesAtEveryPointPrintsTheRatiosAndDrawsThem(@TempDir Path dir)
            throws Exception {
        Path chart = dir.resolve("sweep.svg");
        Outcome o = run("sweep", "--job-ratios=5,20", "--fullness=1,2", "--segments=6", "--tenants=2",
                "--workers=4", "--time-scale=50", "-o", chart.toString());
        assertEquals(0, o.code(), o.out() + o.err());
        assertEquals(4, o.out().lines().filter(l -> l.startsWith("  fleet ")).count(), o.out());
        for (String point : new String[] {"1x     5 ", "1x     20 ", "2x     5 ", "2x     20 "}) {
            assertTrue(o.out().lines().anyMatch(l -> l.startsWith(point)), point + " in\n" + o.out());
        }
        assertTrue(o.out().contains("chart: " + chart.toAbsolutePath().normalize()), o.out());
        Document svg = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(Files.newInputStream(chart));
        assertEquals("svg", svg.getDocumentElement().getTagName());
        // Per measure, per fullness: a solid, a dashed and a dotted line (the waiting room).
        assertEquals(3 * 2 * 3, svg.getElementsByTagName("polyline").getLength());
        assertTrue(o.out().lines().anyMatch(l -> l.startsWith("  fleet ") && l.contains("waiting room/oracle")),
                o.out());
    }

    @Test
    void withoutTheWaitingRoomTheSweepRunsTheThreeStrategiesAsBefore(@TempDir Path dir) throws Exception {
        Path chart = dir.resolve("sweep.svg");
        Outcome o = run("sweep", "--job-ratios=5", "--fullness=2", "--segments=6", "--tenants=2", "--workers=4",
                "--time-scale=50", "--admission=refuse", "-o", chart.toString());
        assertEquals(0, o.code(), o.out() + o.err());
        assertTrue(o.out().lines().noneMatch(l -> l.contains("waiting room")), o.out());
        Document svg = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(Files.newInputStream(chart));
        assertEquals(3 * 2, svg.getElementsByTagName("polyline").getLength());
    }

    @ParameterizedTest(name = "{0} -> names {1}")
    @CsvSource(delimiter = '|', value = {
        "--fullness=0|--fullness",
        "--job-ratios=-5|--job-ratios",
        "--job-ratios=x|--job-ratios",
        "--time-scale=5000|--time-scale",
        "--refused-delay=0|--refused-delay",
        "--output=|--output",
    })
    void aBadSweepOptionGetsOneLineNamingItAndExitCode2(String arg, String option) {
        Outcome o = run("sweep", arg);
        assertEquals(2, o.code(), o.err());
        assertEquals("", o.out());
        assertEquals(1, o.err().strip().lines().count(), o.err());
        assertTrue(o.err().contains(option) && !o.err().contains("java."), o.err());
        assertTrue(o.err().strip().endsWith("(see orderly sweep --help)"), o.err());
    }
}
