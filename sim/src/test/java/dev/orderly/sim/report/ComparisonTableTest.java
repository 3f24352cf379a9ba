package dev.orderly.sim.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.sim.run.RunResult;
import dev.orderly.sim.run.RunSpec;
import dev.orderly.sim.run.Strategy;
import dev.orderly.sim.run.TenantResult;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(5)
class ComparisonTableTest {

    // Ordered: ready at 1..4 s, delivered at once: lags 0,0,0,0; first segment at 1 s; done at 4 s.
    private static final RunResult ORDERED = Records.run(RunSpec.all(Strategy.ORDERED, 1), 4,
            Records.tenant("tenant-1", Strategy.ORDERED, new long[] {1, 2, 3, 4}, new long[] {1, 2, 3, 4}, 2, 40,
                    30, 1));
    // Unordered: segment 0 ready last, at 8 s, the others earlier: lags 0,6,7,8, so p50 (nearest rank) 6.
    private static final RunResult UNORDERED = Records.run(RunSpec.all(Strategy.UNORDERED, 1), 8,
            Records.tenant("tenant-1", Strategy.UNORDERED, new long[] {8, 2, 1, 0}, new long[] {8, 8, 8, 8}, 8, 160,
                    150, 0));

    private static List<String> row(String table, String label) {
        return table.lines().filter(l -> l.startsWith(label + " ") || l.startsWith(label + "\t")).findFirst()
                .map(l -> Arrays.asList(l.substring(label.length()).trim().split("\\s{2,}"))).orElseThrow(
                        () -> new AssertionError("no row " + label + " in\n" + table));
    }

    @Test
    void theTableHasEveryColumnAndOneRowPerStrategyAndTheRatios() {
        String table = new Report(List.of(ORDERED, UNORDERED)).table().render();
        String header = table.lines().findFirst().orElseThrow();
        int at = -1;
        for (String column : ComparisonTable.COLUMNS) {
            int i = header.indexOf(column, at + 1);
            assertTrue(i > at, "column " + column + " in order in: " + header);
            at = i;
        }
        assertEquals(List.of("1.00s", "2.50s", "0.00s", "0.00s", "0.00s", "2.00s", "4.00s", "40", "30", "10.0", "1"),
                row(table, "ordered"));
        assertEquals(List.of("8.00s", "8.00s", "6.00s", "8.00s", "8.00s", "8.00s", "8.00s", "160", "150", "20.0", "0"),
                row(table, "unordered"));
        assertEquals(List.of("0.13x", "0.31x", "0.000x", "0.000x", "0.000x", "0.25x", "0.50x", "0.25x", "0.20x",
                "0.50x"), row(table, ComparisonTable.RATIO_LABEL));
    }

    @Test
    void anOracleRunAddsItsRowAndTheRatiosOrderedOverOracle() {
        // The oracle: ready and delivered at 1, 1, 2, 2 s: mean delivery 1.5 s, done at 2 s, 4 dials, no refusal.
        RunResult oracle = Records.run(RunSpec.all(Strategy.ORACLE, 1), 2,
                Records.tenant("tenant-1", Strategy.ORACLE, new long[] {1, 1, 2, 2}, new long[] {1, 1, 2, 2}, 1, 4,
                        0, 0));
        String table = new Report(List.of(ORDERED, UNORDERED, oracle)).table().render();
        assertEquals(List.of("1.00s", "1.50s", "0.00s", "0.00s", "0.00s", "1.00s", "2.00s", "4", "0", "2.0", "0"),
                row(table, "oracle"));
        assertEquals(List.of("1.00x", "1.67x", "-", "-", "-", "2.00x", "2.00x", "10.00x", "n/a", "5.00x"),
                row(table, ComparisonTable.ORACLE_RATIO_LABEL));
        assertTrue(table.indexOf(ComparisonTable.RATIO_LABEL) < table.indexOf(ComparisonTable.ORACLE_RATIO_LABEL));
    }

    @Test
    void withOneStrategyThereIsNoRatioRow() {
        String table = new Report(List.of(ORDERED)).table().render();
        assertFalse(table.contains(ComparisonTable.RATIO_LABEL), table);
        assertEquals(3, table.lines().count(), table);
    }

    @Test
    void aMixedRunGivesOneRowForItsOrderedTenantAndOneForItsUnorderedTenants() {
        RunResult mixed = Records.run(RunSpec.mixed(2), 8,
                Records.tenant("tenant-1", Strategy.ORDERED, new long[] {1, 2}, new long[] {1, 2}, 1, 10, 5, 0),
                Records.tenant("tenant-2", Strategy.UNORDERED, new long[] {8, 1}, new long[] {8, 8}, 8, 80, 70, 0));
        Report report = new Report(List.of(mixed));
        assertEquals(List.of("mixed: 1 ordered", "mixed: 1 unordered"),
                report.rows().stream().map(StrategyMetrics::label).toList());
        assertEquals(2, report.panels().size());
        assertEquals(1, report.notes().size());
        assertTrue(report.notes().getFirst().contains("1.00s") && report.notes().getFirst().contains("8.00s"),
                report.notes().getFirst());
    }

    @Test
    void aRatioOverZeroIsNotANumber() {
        assertEquals("n/a", ComparisonTable.countRatio(1, 0));
        assertEquals("0.50x", ComparisonTable.ratio(1, 2));
    }

    @Test
    void bugRatiosOfNearZeroTimesShowedAsLargeMultiples() {
        // Lag max 0.04 s against 0.01 s is noise under the table's resolution, not "4.00x".
        assertEquals("-", ComparisonTable.ratio(0.04, 0.01));
        assertEquals("-", ComparisonTable.ratio(0, 0));
        // Against a near-zero divisor the ratio is only a lower bound, computed on the floor.
        assertEquals(">20x", ComparisonTable.ratio(1.0, 0.01));
        assertEquals("0.000x", ComparisonTable.ratio(0, 6));
    }

    @Test
    void bugTheMixedSentenceSaidTheOrderedTenantPressesLessWhenItSentMore() {
        // The ordered tenant sent 200 dials in 2 s, the unordered one 80 in 8 s.
        RunResult mixed = Records.run(RunSpec.mixed(2), 8,
                Records.tenant("tenant-1", Strategy.ORDERED, new long[] {1, 2}, new long[] {1, 2}, 1, 200, 150, 0),
                Records.tenant("tenant-2", Strategy.UNORDERED, new long[] {8, 1}, new long[] {8, 8}, 8, 80, 70, 0));
        String note = new Report(List.of(mixed)).notes().getFirst();
        assertFalse(note.contains("presses less"), note);
        assertTrue(note.contains("more"), note);
    }

    @Test
    void bugAFailedTenantWasReportedAsDoneAfterSomeTime() {
        RunResult ok = Records.run(RunSpec.mixed(2), 8,
                Records.tenant("tenant-1", Strategy.ORDERED, new long[] {1, 2}, new long[] {1, 2}, 1, 10, 5, 0),
                Records.tenant("tenant-2", Strategy.UNORDERED, new long[] {8, 1}, new long[] {8, 8}, 8, 80, 70, 0));
        List<TenantResult> tenants = new ArrayList<>(ok.tenants());
        tenants.set(0, new TenantResult(tenants.get(0).record(), Optional.empty(),
                Optional.of("segment 1 stage 1 failed fatally")));
        RunResult failed = new RunResult(ok.spec(), tenants, ok.fleet(), ok.wallNanos(), ok.timeScale());
        String note = new Report(List.of(failed)).notes().getFirst();
        assertFalse(note.contains("done after"), note);
        assertTrue(note.contains("failed"), note);
    }

    @Test
    void percentilesAreNearestRank() {
        double[] sorted = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
        assertEquals(5, StrategyMetrics.percentile(sorted, 50));
        assertEquals(9, StrategyMetrics.percentile(sorted, 90));
        assertTrue(Double.isNaN(StrategyMetrics.percentile(new double[0], 50)));
    }
}
