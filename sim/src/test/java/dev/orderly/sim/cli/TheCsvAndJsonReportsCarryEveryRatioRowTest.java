package dev.orderly.sim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.sim.report.ComparisonTable;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The table prints three ratio rows (ordered/unordered, ordered/oracle, waiting room/oracle), but
 * {@code --format=csv} and {@code --format=json} carried only ordered/unordered: a script lost two of the three
 * comparisons. Both now carry every ratio row the table prints, under the table's labels.
 */
@Timeout(60)
class TheCsvAndJsonReportsCarryEveryRatioRowTest {

    private static final List<String> LABELS = List.of(ComparisonTable.RATIO_LABEL,
            ComparisonTable.ORACLE_RATIO_LABEL, ComparisonTable.WAITING_ORACLE_RATIO_LABEL);

    private static CliRun run(Path dir, String format) {
        return CliRun.of("--tenants=2", "--segments=3", "--stages=1", "--time-scale=100", "--strategy=all", "-o",
                dir.resolve("t.svg").toString(), "--format=" + format);
    }

    @Test
    void theTablePrintsTheThreeRatioRows(@TempDir Path dir) {
        CliRun o = run(dir, "table");
        assertEquals(0, o.code(), o.err());
        for (String label : LABELS) {
            assertTrue(o.out().lines().anyMatch(l -> l.startsWith(label + "  ")), label + " in\n" + o.out());
        }
    }

    @Test
    void theCsvEndsWithEveryRatioRowTheTablePrints(@TempDir Path dir) {
        CliRun o = run(dir, "csv");
        assertEquals(0, o.code(), o.err());
        List<String> lines = o.out().lines().toList();
        List<String> last = lines.subList(lines.size() - LABELS.size(), lines.size());
        for (int i = 0; i < LABELS.size(); i++) {
            assertTrue(last.get(i).startsWith(LABELS.get(i) + ",,"), "the ratio rows last, in the table's order:\n"
                    + o.out());
            String[] cells = last.get(i).split(",", -1);
            assertEquals(MachineReport.CSV_COLUMNS.size(), cells.length, last.get(i));
            assertTrue(Double.parseDouble(cells[MachineReport.CSV_COLUMNS.indexOf("mean_delivery_s")]) > 0,
                    last.get(i));
        }
    }

    @Test
    void theJsonHasEveryRatioRowTheTablePrints(@TempDir Path dir) {
        CliRun o = run(dir, "json");
        assertEquals(0, o.code(), o.err());
        String json = o.out();
        int at = json.indexOf("\"ratioRows\": [");
        assertTrue(at >= 0, "a list of the ratio rows:\n" + json);
        for (String label : LABELS) {
            int row = json.indexOf("\"ratio\": \"" + label + "\",\n      \"firstSegment\": ", at);
            assertTrue(row > at, label + " with its figures in\n" + json);
            at = row;
        }
        // ordered/unordered stays where scripts read it
        assertTrue(json.contains("\"ratios\": {\n    \"firstSegment\": "), json);
    }
}
