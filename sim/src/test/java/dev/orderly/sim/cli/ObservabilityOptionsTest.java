package dev.orderly.sim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code --jfr}, {@code --format} and {@code --metrics}: bad values, and what each one writes. */
@Timeout(60)
class ObservabilityOptionsTest {

    /** A small scenario: 4 tenants x 6 segments, fast. */
    private static String[] small(Path dir, String... more) {
        List<String> args = new ArrayList<>(List.of("--segments=6", "--time-scale=100",
                "--strategy=both", "-o", dir.resolve("t.svg").toString()));
        args.addAll(List.of(more));
        return args.toArray(String[]::new);
    }

    private static void assertOneLineNaming(CliRun o, String option) {
        assertEquals(2, o.code(), o.err());
        assertEquals("", o.out());
        List<String> lines = o.err().strip().lines().toList();
        assertEquals(1, lines.size(), "one line, was: " + o.err());
        assertTrue(lines.getFirst().startsWith("orderly: ") && lines.getFirst().contains(option), lines.getFirst());
        assertFalse(o.err().contains("Exception") || o.err().contains("\tat "), "no stack trace: " + o.err());
    }

    @Test
    void helpListsTheOptions() {
        CliRun o = CliRun.of("--help");
        assertEquals(0, o.code());
        for (String option : List.of("--jfr=FILE", "--format=FORMAT", "--metrics")) {
            assertTrue(o.out().contains(option), "help lists " + option);
        }
    }

    @Test
    void anUnknownFormatGetsOneLineNamingTheOptionAndTheValues() {
        CliRun o = CliRun.of("--format=xml");
        assertOneLineNaming(o, "--format");
        assertTrue(o.err().contains("table, csv, json") && o.err().contains("'xml'"), o.err());
    }

    @Test
    void aRecordingFileInAMissingDirectoryGetsOneLineNamingJfr(@TempDir Path dir) {
        assertOneLineNaming(CliRun.of("--jfr=" + dir.resolve("no/such/dir/run.jfr")), "--jfr");
    }

    @Test
    void aRecordingFileThatIsADirectoryGetsOneLineNamingJfr(@TempDir Path dir) {
        assertOneLineNaming(CliRun.of("--jfr=" + dir), "--jfr");
    }

    @Test
    void metricsWithCsvGetOneLineNamingMetrics() {
        assertOneLineNaming(CliRun.of("--metrics", "--format=csv"), "--metrics");
    }

    @Test
    void csvPrintsTheHeaderEachRowAndTheRatiosAndNothingElse(@TempDir Path dir) {
        CliRun o = CliRun.of(small(dir, "--format=csv"));

        assertEquals(0, o.code(), o.err());
        List<String> lines = o.out().lines().toList();
        assertEquals(String.join(",", MachineReport.CSV_COLUMNS), lines.getFirst());
        assertEquals(4, lines.size(), o.out());
        assertTrue(lines.get(1).startsWith("ordered,4,"), lines.get(1));
        assertTrue(lines.get(2).startsWith("unordered,4,"), lines.get(2));
        assertTrue(lines.get(3).startsWith("ordered/unordered,,"), lines.get(3));
        for (String line : lines) {
            assertEquals(MachineReport.CSV_COLUMNS.size(), line.split(",", -1).length, line);
        }
    }

    @Test
    void jsonHoldsEveryTenantsFiguresTheRatiosAndTheMeters(@TempDir Path dir) {
        CliRun o = CliRun.of(small(dir, "--format=json", "--metrics"));

        assertEquals(0, o.code(), o.err());
        String json = o.out().strip();
        assertTrue(json.startsWith("{") && json.endsWith("}"), "one document and nothing else:\n" + json);
        assertEquals(8, count(json, "\"tenant\": \"tenant-"), "4 tenants in each of 2 runs:\n" + json);
        assertEquals(8, count(json, "\"delivered\": 6,"), json);
        assertTrue(json.contains("\"ratios\": {\n    \"firstSegment\": "), json);
        // the meters agree with the tenants' figures: refusals summed per run
        Map<String, Long> refusals = sumPerRun(json);
        for (String run : List.of("ordered", "unordered")) {
            long refused = meter(json, "orderly.dials", "outcome=refused,run=" + run)
                    + meter(json, "orderly.dials", "outcome=unreachable,run=" + run);
            assertEquals(refusals.get(run), refused, run);
            assertEquals(24, meter(json, "orderly.segments.delivered", "run=" + run), run);
        }
    }

    @Test
    void metricsPrintTheMetersAfterTheTable(@TempDir Path dir) {
        CliRun o = CliRun.of(small(dir, "--metrics", "-q"));

        assertEquals(0, o.code(), o.err());
        String text = o.out();
        int table = text.indexOf("ordered/unordered");
        int meters = text.indexOf("Micrometer meters");
        assertTrue(table >= 0 && meters > table, text);
        assertTrue(text.lines().anyMatch(l -> l.matches("orderly\\.segments\\.delivered\\{run=ordered} +count 24")),
                text);
        assertTrue(text.lines().anyMatch(l -> l.matches("orderly\\.requests\\{result=done,run=unordered} +count 4")),
                text);
        assertTrue(text.lines().anyMatch(l -> l.matches("orderly\\.launch\\.queued\\{run=ordered} +value 0")), text);
    }

    @Test
    void jfrRecordsEveryOrderlyEventTypeIntoTheFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("run.jfr");

        CliRun o = CliRun.of(small(dir, "--jfr=" + file, "-q"));

        assertEquals(0, o.code(), o.err());
        assertTrue(o.out().contains("flight recording: " + file), o.out());
        Map<String, Integer> seen = new HashMap<>();
        for (RecordedEvent e : RecordingFile.readAllEvents(file)) {
            if (e.getEventType().getName().startsWith("dev.orderly.")) {
                seen.merge(e.getEventType().getName(), 1, Integer::sum);
                assertTrue(e.getString("requestId").startsWith("tenant-"), e.toString());
            }
        }
        assertEquals(Observation.ORDERLY_EVENTS.stream().sorted().toList(), seen.keySet().stream().sorted().toList());
        // 4 tenants x 6 segments in each of the two runs
        assertEquals(48, seen.get("dev.orderly.SegmentDelivered"));
        assertTrue(Files.size(file) > 0);
    }

    @Test
    void jsonEscapesStringsAndWritesMissingNumbersAsNull() {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("a\"b", "line\nnext\\");
        doc.put("n", Double.NaN);
        doc.put("x", List.of(1, 2.5));

        assertEquals("{\n  \"a\\\"b\": \"line\\nnext\\\\\",\n  \"n\": null,\n  \"x\": [\n    1,\n    2.5\n  ]\n}\n",
                Json.write(doc));
    }

    private static int count(String text, String needle) {
        int n = 0;
        for (int i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) {
            n++;
        }
        return n;
    }

    /** The tenants' refusals summed per run, read from the "runs" part of the document. */
    private static Map<String, Long> sumPerRun(String json) {
        Map<String, Long> sums = new HashMap<>();
        Matcher runs = Pattern.compile("\"run\": \"(\\w+)\"").matcher(json);
        List<Integer> starts = new ArrayList<>();
        List<String> names = new ArrayList<>();
        while (runs.find()) {
            starts.add(runs.start());
            names.add(runs.group(1));
        }
        int end = json.indexOf("\"rows\"");
        for (int i = 0; i < starts.size(); i++) {
            String part = json.substring(starts.get(i), i + 1 < starts.size() ? starts.get(i + 1) : end);
            Matcher m = Pattern.compile("\"refusals\": (\\d+)").matcher(part);
            long sum = 0;
            while (m.find()) {
                sum += Long.parseLong(m.group(1));
            }
            sums.put(names.get(i), sum);
        }
        return sums;
    }

    private static long meter(String json, String name, String tags) {
        Matcher m = Pattern.compile("\"name\": \"" + Pattern.quote(name) + "\",\\s*\"tags\": \"" + Pattern.quote(tags)
                + "\",\\s*\"type\": \"counter\",\\s*\"value\": ([0-9.]+)").matcher(json);
        assertTrue(m.find(), name + "{" + tags + "} in\n" + json);
        return (long) Double.parseDouble(m.group(1));
    }
}
