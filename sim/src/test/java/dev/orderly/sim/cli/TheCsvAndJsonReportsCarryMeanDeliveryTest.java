package dev.orderly.sim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --format=csv} and {@code --format=json} left out mean delivery, the table's headline column: the CSV had no
 * column for it and the JSON neither a row field nor a ratio. Both now carry it where the table has it, after first
 * segment: {@code mean_delivery_s} in CSV, {@code meanDelivery} in JSON's rows and ratios.
 */
@Timeout(30)
class TheCsvAndJsonReportsCarryMeanDeliveryTest {

    private static CliRun run(Path dir, String format) {
        return CliRun.of("--tenants=1", "--segments=3", "--stages=1", "--time-scale=100", "--strategy=both", "-o",
                dir.resolve("t.svg").toString(), "--format=" + format);
    }

    @Test
    void theCsvHasAMeanDeliveryColumnAfterFirstSegmentInEveryRowAndTheRatioRow(@TempDir Path dir) {
        CliRun o = run(dir, "csv");
        assertEquals(0, o.code(), o.err());
        List<String> lines = o.out().lines().toList();
        List<String> header = List.of(lines.getFirst().split(","));
        int column = header.indexOf("mean_delivery_s");
        assertEquals(header.indexOf("first_segment_s") + 1, column, "after first segment, as in the table: "
                + header);
        assertEquals(4, lines.size(), o.out());
        for (String line : lines.subList(1, lines.size())) {
            String[] cells = line.split(",", -1);
            assertEquals(header.size(), cells.length, line);
            assertTrue(Double.parseDouble(cells[column]) > 0, "a mean delivery in " + line);
        }
    }

    @Test
    void theJsonHasMeanDeliveryInEveryRowAndInTheRatios(@TempDir Path dir) {
        CliRun o = run(dir, "json");
        assertEquals(0, o.code(), o.err());
        Matcher rows = Pattern.compile("\"firstSegment\": [0-9.E-]+,\n\\s*\"meanDelivery\": ([0-9.E-]+),")
                .matcher(o.out());
        int found = 0;
        while (rows.find()) {
            assertTrue(Double.parseDouble(rows.group(1)) > 0, rows.group());
            found++;
        }
        assertEquals(4, found, "the ordered and unordered rows, the ratios and the one ratio row, after"
                + " firstSegment:\n" + o.out());
        assertTrue(o.out().contains("\"ratios\": {\n    \"firstSegment\": "), o.out());
    }
}
