package dev.orderly.sim.cli;

import dev.orderly.api.RequestListener;
import dev.orderly.micrometer.OrderlyMetrics;
import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import io.micrometer.core.instrument.simple.SimpleConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.file.Path;
import java.text.ParseException;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;

/**
 * What observes the measured runs of one command: a flight recording written to a file when closed, and Orderly's
 * Micrometer meters on a {@link SimpleMeterRegistry}, each run's with its own {@code run} tag. Either may be absent.
 */
final class Observation implements AutoCloseable {

    /** The engine's JFR events, recorded in full (no threshold). */
    static final List<String> ORDERLY_EVENTS = List.of("dev.orderly.LaunchWait", "dev.orderly.Dial",
            "dev.orderly.JobRun", "dev.orderly.SegmentDelivered");

    /** How long a timer's max is kept: longer than any command runs. */
    private static final Duration KEEP_MAX = Duration.ofDays(365);

    private final Optional<Recording> recording;
    private final Optional<Path> recordingFile;
    private final Optional<SimpleMeterRegistry> registry;

    private Observation(Optional<Recording> recording, Optional<Path> recordingFile,
            Optional<SimpleMeterRegistry> registry) {
        this.recording = recording;
        this.recordingFile = recordingFile;
        this.registry = registry;
    }

    /**
     * Starts a recording into {@code jfrFile} (when not null) and a meter registry (when {@code metrics}).
     *
     * @throws IOException when the recording can not go to {@code jfrFile}
     */
    static Observation start(Path jfrFile, boolean metrics) throws IOException {
        return start(jfrFile, metrics, Clock.SYSTEM);
    }

    /** As {@link #start(Path, boolean)}, with the meters timed by {@code clock}. */
    static Observation start(Path jfrFile, boolean metrics, Clock clock) throws IOException {
        Optional<Recording> recording = Optional.empty();
        if (jfrFile != null) {
            Recording r;
            try {
                r = new Recording(Configuration.getConfiguration("default"));
            } catch (ParseException e) {
                throw new IOException("the JDK's default recording settings do not parse: " + e.getMessage(), e);
            }
            r.setName("orderly");
            for (String event : ORDERLY_EVENTS) {
                r.enable(event).withoutThreshold();
            }
            r.setDestination(jfrFile);
            r.start();
            recording = Optional.of(r);
        }
        return new Observation(recording, Optional.ofNullable(jfrFile),
                metrics ? Optional.of(registry(clock)) : Optional.empty());
    }

    /**
     * A registry whose timers keep their max for the whole command: the summary prints once, after the last run, and
     * Micrometer's max decays after 2 minutes, so an early run's timers printed "max 0.00 ms" under a mean of 500 ms.
     */
    private static SimpleMeterRegistry registry(Clock clock) {
        SimpleMeterRegistry registry = new SimpleMeterRegistry(SimpleConfig.DEFAULT, clock);
        registry.config().meterFilter(new MeterFilter() {
            @Override
            public DistributionStatisticConfig configure(Meter.Id id, DistributionStatisticConfig config) {
                return DistributionStatisticConfig.builder().expiry(KEEP_MAX).bufferLength(1).build().merge(config);
            }
        });
        return registry;
    }

    /** What each request of the run {@code run} reports to: the run's meters, then the run's own listener. */
    UnaryOperator<RequestListener> observer(String run) {
        if (registry.isEmpty()) {
            return UnaryOperator.identity();
        }
        OrderlyMetrics metrics = new OrderlyMetrics(registry.get(), Tags.of("run", run));
        return metrics::listener;
    }

    /** Whether meters are kept. */
    boolean hasMeters() {
        return registry.isPresent();
    }

    /** One line per meter, sorted by name and tags, or nothing without {@code --metrics}. */
    List<MeterLine> meters() {
        return registry.map(r -> r.getMeters().stream()
                .map(Observation::line)
                .sorted(Comparator.comparing(MeterLine::name).thenComparing(MeterLine::tags))
                .toList()).orElse(List.of());
    }

    /**
     * One meter's figures: counters and gauges have a value; timers a count, a total and a max in milliseconds.
     *
     * @param name the meter's name
     * @param tags its tags as {@code key=value,...}
     * @param type counter, gauge or timer
     * @param value a counter's count or a gauge's value (NaN for a timer)
     * @param count a timer's count (0 otherwise)
     * @param totalMillis a timer's total time in wall-clock milliseconds
     * @param maxMillis a timer's largest recording, in wall-clock milliseconds, over the whole command
     */
    record MeterLine(String name, String tags, String type, double value, long count, double totalMillis,
                     double maxMillis) {

        /** The line as printed after the table. */
        String render(int nameWidth) {
            String id = name + "{" + tags + "}";
            String figures = switch (type) {
                case "timer" -> String.format(Locale.ROOT, "count %d  total %.1f ms  mean %.2f ms  max %.2f ms",
                        count, totalMillis, count == 0 ? 0.0 : totalMillis / count, maxMillis);
                default -> String.format(Locale.ROOT, "%s %s", type.equals("gauge") ? "value" : "count",
                        value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value));
            };
            return String.format(Locale.ROOT, "%-" + nameWidth + "s  %s", id, figures);
        }
    }

    private static MeterLine line(Meter meter) {
        String name = meter.getId().getName();
        String tags = meter.getId().getTags().stream().map(t -> t.getKey() + "=" + t.getValue())
                .collect(Collectors.joining(","));
        return switch (meter) {
            case Counter c -> new MeterLine(name, tags, "counter", c.count(), 0, 0, 0);
            case Gauge g -> new MeterLine(name, tags, "gauge", g.value(), 0, 0, 0);
            case Timer t -> new MeterLine(name, tags, "timer", Double.NaN, t.count(),
                    t.totalTime(TimeUnit.MILLISECONDS), t.max(TimeUnit.MILLISECONDS));
            default -> new MeterLine(name, tags, meter.getId().getType().name().toLowerCase(Locale.ROOT),
                    Double.NaN, 0, 0, 0);
        };
    }

    /** The summary printed after the table. */
    String summary() {
        List<MeterLine> lines = meters();
        int width = lines.stream().mapToInt(l -> l.name().length() + l.tags().length() + 2).max().orElse(0);
        StringBuilder out = new StringBuilder("Micrometer meters (SimpleMeterRegistry; times are wall-clock, not"
                + " simulated):\n");
        for (MeterLine l : lines) {
            out.append(l.render(width)).append('\n');
        }
        return out.toString();
    }

    /** Stops the recording, which writes it to its file. */
    @Override
    public void close() throws IOException {
        if (recording.isPresent()) {
            Recording r = recording.get();
            try {
                r.stop();
            } finally {
                r.close();
            }
        }
    }

    /** The recording's file, when there is one. */
    Optional<Path> recordingFile() {
        return recordingFile;
    }
}
