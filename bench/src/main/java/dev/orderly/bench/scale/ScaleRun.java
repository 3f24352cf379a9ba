package dev.orderly.bench.scale;

import dev.orderly.api.Engine;
import dev.orderly.api.EngineConfig;
import dev.orderly.api.Request;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.RequestResult;
import dev.orderly.engine.InMemoryOutputStore;
import dev.orderly.engine.Orderly;
import dev.orderly.testing.InMemoryFleet;
import dev.orderly.testing.OutputSink;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Scale runs of the engine against the testing kit's {@link InMemoryFleet} (its event log off), printed for people:
 *
 * <ul>
 *   <li>{@code concurrent}: {@code requests} requests at once, each of {@code workers} workers, against one fleet of
 *       {@code capacity} slots whose jobs take {@code work-ms}; reports wall time, peak heap and the dial counts.
 *   <li>{@code long}: one request over {@code long-segments} segments against a fleet with room for everything whose
 *       jobs end at once; reports the live heap (after a full collection) at every {@code checkpoint} segments.
 * </ul>
 *
 * Usage: {@code ScaleRun [concurrent|long|all] [--name=value ...]}; the options and their defaults are in
 * {@link #DEFAULTS}. Exit code 0 when every request delivered every segment in order, 1 when one failed, 2 for a bad
 * argument.
 */
public final class ScaleRun {

    private static final Map<String, Long> DEFAULTS = new LinkedHashMap<>();

    static {
        DEFAULTS.put("requests", 1_000L);
        DEFAULTS.put("workers", 100L);
        DEFAULTS.put("segments", 200L);
        DEFAULTS.put("stages", 2L);
        DEFAULTS.put("capacity", 2_000L);
        DEFAULTS.put("work-ms", 5L);
        DEFAULTS.put("long-segments", 10_000_000L);
        DEFAULTS.put("long-workers", 100L);
        DEFAULTS.put("checkpoint", 1_000_000L);
    }

    private final Map<String, Long> options;

    private ScaleRun(Map<String, Long> options) {
        this.options = options;
    }

    public static void main(String[] args) throws Exception {
        String scenario = "all";
        Map<String, Long> options = new LinkedHashMap<>(DEFAULTS);
        try {
            for (String arg : args) {
                if (arg.startsWith("--")) {
                    parseOption(arg, options);
                } else if (List.of("concurrent", "long", "all").contains(arg)) {
                    scenario = arg;
                } else {
                    throw new IllegalArgumentException("unknown scenario '" + arg + "'; expected concurrent, long or all");
                }
            }
        } catch (IllegalArgumentException e) {
            System.err.println("ScaleRun: " + e.getMessage());
            System.err.println("usage: ScaleRun [concurrent|long|all] [--name=value ...], names and defaults: "
                    + DEFAULTS);
            System.exit(2);
        }
        ScaleRun run = new ScaleRun(options);
        System.out.printf(Locale.ROOT, "JDK %s, %d CPU(s), max heap %s%n", Runtime.version(),
                Runtime.getRuntime().availableProcessors(), HeapWatch.mib(HeapWatch.maxBytes()));
        boolean ok = true;
        if (!scenario.equals("long")) {
            ok &= run.concurrent();
        }
        if (!scenario.equals("concurrent")) {
            ok &= run.longRequest();
        }
        System.exit(ok ? 0 : 1);
    }

    private static void parseOption(String arg, Map<String, Long> options) {
        int eq = arg.indexOf('=');
        String name = eq < 0 ? arg.substring(2) : arg.substring(2, eq);
        if (!options.containsKey(name)) {
            throw new IllegalArgumentException("unknown option --" + name);
        }
        if (eq < 0) {
            throw new IllegalArgumentException("option --" + name + " needs a value, as --" + name + "=N");
        }
        String value = arg.substring(eq + 1).replace("_", "");
        long parsed;
        try {
            parsed = Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("option --" + name + " must be a whole number, was '" + value + "'");
        }
        long min = name.equals("work-ms") ? 0 : 1;
        if (parsed < min) {
            throw new IllegalArgumentException("option --" + name + " must be >= " + min + ", was " + parsed);
        }
        if (!name.endsWith("segments") && !name.equals("checkpoint") && parsed > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("option --" + name + " is too large, was " + parsed);
        }
        options.put(name, parsed);
    }

    /**
     * One instance of {@code capacity} slots (a full fleet refuses at once), jobs of {@code work}, and no event log:
     * a scale run's log would grow with every dial.
     */
    private static InMemoryFleet fleet(int capacity, Duration work) {
        return InMemoryFleet.builder().slotsPerInstance(capacity).jobTime(work).keepLog(false).build();
    }

    /** Writes the two bytes {@link CheckingConsumer} checks, in place of the kit's own output. */
    private static OutputSink checked(InMemoryOutputStore outputs) {
        return (segment, output) -> outputs.write(segment, new byte[] {(byte) segment, (byte) (segment >>> 8)});
    }

    private int intOption(String name) {
        return Math.toIntExact(options.get(name));
    }

    /** Many requests at once against one fleet. True when every request delivered every segment. */
    private boolean concurrent() throws InterruptedException {
        int requests = intOption("requests");
        int workers = intOption("workers");
        long segments = options.get("segments");
        int stages = intOption("stages");
        InMemoryFleet fleet = fleet(intOption("capacity"), Duration.ofMillis(options.get("work-ms")));
        Engine engine = Orderly.engine(EngineConfig.defaults());
        System.out.printf(Locale.ROOT, "%nconcurrent: %d requests x %d workers, %d segments x %d stages each, fleet of"
                + " %d slots, %d ms per job%n", requests, workers, segments, stages, intOption("capacity"),
                options.get("work-ms"));

        RequestResult[] results = new RequestResult[requests];
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>(requests);
        long heapBefore = HeapWatch.liveBytesAfterGc();
        HeapWatch heap = HeapWatch.start(Duration.ofMillis(10));
        for (int i = 0; i < requests; i++) {
            int index = i;
            threads.add(Thread.ofVirtual().name("request-" + i).start(() -> {
                InMemoryOutputStore outputs = new InMemoryOutputStore();
                RequestPlan plan = new RequestPlan(0, segments, stages, workers);
                Request request = Request.of(plan, fleet.tenant(plan, checked(outputs)).client(), outputs,
                        new CheckingConsumer(0, outputs)).withId("r" + index);
                try {
                    go.await();
                    results[index] = engine.run(request);
                } catch (Throwable t) {
                    failure.compareAndSet(null, t);
                }
            }));
        }
        long start = System.nanoTime();
        go.countDown();
        for (Thread t : threads) {
            t.join();
        }
        long elapsedNanos = System.nanoTime() - start;
        long[] peak = heap.stop();

        if (failure.get() != null) {
            System.out.println("FAILED: " + failure.get());
            return false;
        }
        long delivered = 0;
        long dials = 0;
        long refusals = 0;
        long[] requestMillis = new long[requests];
        long[] firstMillis = new long[requests];
        for (int i = 0; i < requests; i++) {
            delivered += results[i].segmentsDelivered();
            dials += results[i].dials();
            refusals += results[i].refusals();
            requestMillis[i] = results[i].elapsed().toMillis();
            firstMillis[i] = results[i].timeToFirstSegment().toMillis();
        }
        boolean complete = delivered == requests * segments;
        System.out.printf(Locale.ROOT, "  %s: %d of %d segments delivered in order in %.1f s%n",
                complete ? "completed" : "INCOMPLETE", delivered, requests * segments, elapsedNanos / 1e9);
        System.out.printf(Locale.ROOT, "  dials %d, admissions %d, refusals %d (fleet refused %d)%n", dials,
                fleet.admissions(), refusals, fleet.refusals());
        System.out.printf(Locale.ROOT, "  per request: elapsed p50 %d ms, max %d ms; first segment p50 %d ms, max %d ms%n",
                percentile(requestMillis, 50), percentile(requestMillis, 100), percentile(firstMillis, 50),
                percentile(firstMillis, 100));
        System.out.printf(Locale.ROOT, "  heap: live before %s; peak after a collection %s; peak used (sampled every 10 ms,"
                + " garbage included) %s; live after %s%n", HeapWatch.mib(heapBefore), HeapWatch.mib(peak[1]),
                HeapWatch.mib(peak[0]), HeapWatch.mib(HeapWatch.liveBytesAfterGc()));
        if (fleet.busySlots() != 0) {
            System.out.println("  FAILED: " + fleet.busySlots() + " fleet slots never given back");
            return false;
        }
        return complete;
    }

    /** One long request with an instant fleet. True when it delivered every segment. */
    private boolean longRequest() throws Exception {
        long segments = options.get("long-segments");
        int workers = intOption("long-workers");
        long checkpoint = options.get("checkpoint");
        InMemoryFleet fleet = fleet(Integer.MAX_VALUE, Duration.ZERO);
        InMemoryOutputStore outputs = new InMemoryOutputStore();
        System.out.printf(Locale.ROOT, "%nlong: one request over %,d segments, %d workers, 1 stage, instant tier2%n",
                segments, workers);
        System.out.printf(Locale.ROOT, "  %14s  %9s  %16s%n", "delivered", "elapsed", "live heap (GC'd)");
        long start = System.nanoTime();
        System.out.printf(Locale.ROOT, "  %,14d  %8.1fs  %16s%n", 0L, 0.0, HeapWatch.mib(HeapWatch.liveBytesAfterGc()));
        List<Long> live = new ArrayList<>();
        CheckingConsumer client = new CheckingConsumer(0, outputs, checkpoint, delivered -> {
            long bytes = HeapWatch.liveBytesAfterGc();
            live.add(bytes);
            System.out.printf(Locale.ROOT, "  %,14d  %8.1fs  %16s%n", delivered, (System.nanoTime() - start) / 1e9,
                    HeapWatch.mib(bytes));
        });
        HeapWatch heap = HeapWatch.start(Duration.ofMillis(10));
        RequestResult result;
        long[] peak;
        try {
            RequestPlan plan = new RequestPlan(0, segments, 1, workers);
            result = Orderly.engine(EngineConfig.defaults()).run(Request.of(
                    plan, fleet.tenant(plan, checked(outputs)).client(), outputs, client));
        } catch (Exception e) {
            System.out.println("  FAILED: " + e);
            return false;
        } finally {
            peak = heap.stop();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        boolean complete = result.segmentsDelivered() == segments;
        System.out.printf(Locale.ROOT, "  %s: %,d segments in %.1f s (%,.0f segments/s), %,d dials%n",
                complete ? "completed" : "INCOMPLETE", result.segmentsDelivered(), seconds,
                result.segmentsDelivered() / seconds, result.dials());
        System.out.printf(Locale.ROOT, "  heap: peak after a collection %s (checkpoints' System.gc() included); peak used"
                + " (sampled every 10 ms, garbage included) %s%n", HeapWatch.mib(peak[1]), HeapWatch.mib(peak[0]));
        if (live.size() >= 2) {
            long min = live.stream().mapToLong(Long::longValue).min().orElseThrow();
            long max = live.stream().mapToLong(Long::longValue).max().orElseThrow();
            System.out.printf(Locale.ROOT, "  live heap over the checkpoints: min %s, max %s%n", HeapWatch.mib(min),
                    HeapWatch.mib(max));
        }
        return complete;
    }

    private static long percentile(long[] values, int percent) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        int index = (int) Math.ceil(percent / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
    }
}
