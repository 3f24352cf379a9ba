package dev.orderly.sim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.w3c.dom.Document;

@Timeout(60)
class SweepCommandTest {

    @Test
    void aSmallSweepRunsTheFourStrategiesAtEveryPointPrintsTheRatiosAndDrawsThem(@TempDir Path dir)
            throws Exception {
        Path chart = dir.resolve("sweep.svg");
        CliRun o = CliRun.of("sweep", "--job-ratios=5,20", "--fullness=1,2", "--segments=6", "--tenants=2",
                "--workers=4", "--time-scale=50", "-o", chart.toString());
        assertEquals(0, o.code(), o.out() + o.err());
        assertEquals(4, o.out().lines().filter(l -> l.startsWith("  fleet ")).count(), o.out());
        for (String point : new String[] {"1x        5x  ", "1x        20x ", "2x        5x  ", "2x        20x "}) {
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
        CliRun o = CliRun.of("sweep", "--job-ratios=5", "--fullness=2", "--segments=6", "--tenants=2", "--workers=4",
                "--time-scale=50", "--admission=refuse", "-o", chart.toString());
        assertEquals(0, o.code(), o.out() + o.err());
        assertTrue(o.out().lines().noneMatch(l -> l.contains("waiting room")), o.out());
        Document svg = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(Files.newInputStream(chart));
        assertEquals(3 * 2, svg.getElementsByTagName("polyline").getLength());
    }

    @Test
    void bugTheSweepTableSpokeInAbbreviationsAndCountedOneStages(@TempDir Path dir) {
        CliRun o = CliRun.of("sweep", "-q", "--job-ratios=5", "--fullness=2", "--segments=4", "--tenants=2",
                "--workers=2", "--time-scale=50", "-o", dir.resolve("s.svg").toString());
        assertEquals(0, o.code(), o.out() + o.err());
        for (String cryptic : new String[] {"job/rd", "o/u", "o/x", "ord/unord/orc", "1 stages"}) {
            assertTrue(!o.out().contains(cryptic), "'" + cryptic + "' in\n" + o.out());
        }
        for (String words : new String[] {"x 1 stage,", "fleet", "fullness", "job duration", "/ refused delay",
            "mean delivery", "first segment", "ordered / unordered", "ordered / oracle"}) {
            assertTrue(o.out().contains(words), "'" + words + "' in\n" + o.out());
        }
    }

    @Test
    void bugTheSweepChartsPanelTitlesRanIntoEachOther(@TempDir Path dir) throws Exception {
        Path chart = dir.resolve("s.svg");
        CliRun o = CliRun.of("sweep", "-q", "--job-ratios=5", "--fullness=2", "--segments=4", "--tenants=2",
                "--workers=2", "--time-scale=50", "-o", chart.toString());
        assertEquals(0, o.code(), o.out() + o.err());
        String svg = Files.readString(chart);
        // A title was "mean delivery: ordered/unordered (solid), ordered/oracle (dashed)": 66 characters of 13-px
        // text, about 430 px, on a panel 432 px wide that starts 56 px in. Now it is the measure alone, and the
        // legend says once what the solid and the dashed lines are.
        java.util.List<String> titles = java.util.regex.Pattern
                .compile("<text[^>]*font-size=\"13\"[^>]*>([^<]*)</text>").matcher(svg).results()
                .map(m -> m.group(1)).toList();
        assertEquals(java.util.List.of("mean delivery", "first segment", "total"), titles, svg);
        assertTrue(svg.contains("solid: ordered launch / the unordered baseline"), svg);
        assertTrue(svg.contains("dashed: ordered launch / the oracle"), svg);
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
        CliRun o = CliRun.of("sweep", arg);
        assertEquals(2, o.code(), o.err());
        assertEquals("", o.out());
        assertEquals(1, o.err().strip().lines().count(), o.err());
        assertTrue(o.err().contains(option) && !o.err().contains("java."), o.err());
        assertTrue(o.err().strip().endsWith("(see orderly sweep --help)"), o.err());
    }
}
