package dev.orderly.micrometer;

import dev.orderly.api.RequestListener;
import dev.orderly.api.Tier2Exception;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Micrometer meters for Orderly requests. Bind it once to a registry, then give each request a fresh
 * {@link #listener()}:
 *
 * <pre>{@code
 * OrderlyMetrics metrics = new OrderlyMetrics(registry);
 * engine.run(request.withListener(metrics.listener(myOwnListener)));
 * }</pre>
 *
 * <table>
 *   <caption>Meters</caption>
 *   <tr><th>name</th><th>type</th><th>what</th></tr>
 *   <tr><td>{@code orderly.dials}</td><td>counter, tag {@code outcome}</td><td>how dials came out:
 *       {@code admitted}, {@code refused}, {@code unreachable} (nothing ran), and the failures
 *       {@code execution_timeout}, {@code retryable}, {@code fatal}, whether they came from the dial or from the run
 *       it admitted. Each tag's count equals the request's figure ({@code admissions}, {@code refusals} split in two,
 *       {@code executionTimeouts}, {@code failures}); a dial that was admitted and then failed counts under
 *       {@code admitted} and under its failure.</td></tr>
 *   <tr><td>{@code orderly.launch.wait}</td><td>timer</td><td>a job's wait for its turn to dial: from joining the
 *       launch queue, or being sent back by a refusal or failure, to its next dial. A job that finds nothing queued,
 *       or nothing queued ahead of it and a dial slot of the window free, does not wait and records nothing; one
 *       that sorts ahead of every queued job while the window's slots are all dialing joins at the front and waits.
 *       </td></tr>
 *   <tr><td>{@code orderly.job.duration}</td><td>timer</td><td>a job's run, from admission to done</td></tr>
 *   <tr><td>{@code orderly.segments.delivered}</td><td>counter</td><td>segments handed to clients</td></tr>
 *   <tr><td>{@code orderly.request.first.segment}</td><td>timer</td><td>a request's time to its first segment,
 *       recorded when the request ends (if it delivered one)</td></tr>
 *   <tr><td>{@code orderly.requests}</td><td>counter, tag {@code result}</td><td>requests ended: {@code done},
 *       {@code failed}, {@code cancelled}</td></tr>
 *   <tr><td>{@code orderly.launch.queued}</td><td>gauge</td><td>jobs in the launch queues of the live requests</td></tr>
 *   <tr><td>{@code orderly.launch.dialing}</td><td>gauge</td><td>dials in flight in the live requests</td></tr>
 * </table>
 *
 * <p>Every meter is registered when this object is made, so a dashboard sees zeros before the first request. The
 * gauges read two totals kept here; each request's listener adds its own jobs to them and takes away what is left
 * when its request ends. Nothing here refers to a listener, so a finished request leaves neither a meter nor a
 * reference behind.
 *
 * <p>This class is thread-safe; many requests may run at once. Make one per registry: a second one on the same
 * registry (with the same tags) shares the counters and timers but not the gauges, which would read the first's.
 */
public final class OrderlyMetrics {

    private final Map<Tier2Exception.Kind, Counter> dialsByKind = new EnumMap<>(Tier2Exception.Kind.class);
    private final Counter admitted;
    private final Timer launchWait;
    private final Timer jobDuration;
    private final Counter segmentsDelivered;
    private final Timer firstSegment;
    private final Counter requestsDone;
    private final Counter requestsFailed;
    private final Counter requestsCancelled;
    private final AtomicLong queued = new AtomicLong();
    private final AtomicLong dialing = new AtomicLong();
    private final MeterRegistry registry;

    /** Meters on {@code registry}, with no tags beyond their own. */
    public OrderlyMetrics(MeterRegistry registry) {
        this(registry, Tags.empty());
    }

    /** Meters on {@code registry}, each also carrying {@code tags} (e.g. the service or the fleet's name). */
    public OrderlyMetrics(MeterRegistry registry, Iterable<Tag> tags) {
        this.registry = Objects.requireNonNull(registry, "registry");
        Tags common = Tags.of(Objects.requireNonNull(tags, "tags"));
        this.admitted = dials(registry, common, "admitted");
        for (Tier2Exception.Kind kind : Tier2Exception.Kind.values()) {
            dialsByKind.put(kind, dials(registry, common, kind.name().toLowerCase(Locale.ROOT)));
        }
        this.launchWait = Timer.builder("orderly.launch.wait")
                .description("A job's wait for its turn to dial, from joining the launch queue (or being sent back"
                        + " to it by a refusal or failure) to its next dial")
                .tags(common).register(registry);
        this.jobDuration = Timer.builder("orderly.job.duration")
                .description("A job's run on a tier2, from admission to done")
                .tags(common).register(registry);
        this.segmentsDelivered = Counter.builder("orderly.segments.delivered")
                .description("Segments handed to clients").baseUnit("segments")
                .tags(common).register(registry);
        this.firstSegment = Timer.builder("orderly.request.first.segment")
                .description("A request's time from its start to its first segment delivered")
                .tags(common).register(registry);
        this.requestsDone = requests(registry, common, "done");
        this.requestsFailed = requests(registry, common, "failed");
        this.requestsCancelled = requests(registry, common, "cancelled");
        Gauge.builder("orderly.launch.queued", queued, AtomicLong::get)
                .description("Jobs waiting in the launch queues of the live requests").baseUnit("jobs")
                .tags(common).strongReference(true).register(registry);
        Gauge.builder("orderly.launch.dialing", dialing, AtomicLong::get)
                .description("Dials in flight in the live requests").baseUnit("jobs")
                .tags(common).strongReference(true).register(registry);
    }

    private static Counter dials(MeterRegistry registry, Tags common, String outcome) {
        return Counter.builder("orderly.dials")
                .description("Dials by outcome; failures count whether they came from the dial or the run")
                .baseUnit("dials").tags(common).tag("outcome", outcome).register(registry);
    }

    private static Counter requests(MeterRegistry registry, Tags common, String result) {
        return Counter.builder("orderly.requests")
                .description("Requests ended, by result").baseUnit("requests")
                .tags(common).tag("result", result).register(registry);
    }

    /** A fresh listener for one request. Do not share it between requests. */
    public RequestListener listener() {
        return listener(RequestListener.NONE);
    }

    /**
     * A fresh listener for one request that records its meters and then passes every event on to {@code next}
     * (the embedder's own listener). An exception from {@code next} reaches the engine, which logs it; the meters
     * are recorded first, so it can not skip them.
     */
    public RequestListener listener(RequestListener next) {
        return new RequestMeters(this, Objects.requireNonNull(next, "next"));
    }

    // ---- what the per-request listeners record

    long now() {
        return registry.config().clock().monotonicTime();
    }

    void dialed(Tier2Exception.Kind kind) {
        dialsByKind.get(kind).increment();
    }

    void admitted() {
        admitted.increment();
    }

    Timer launchWait() {
        return launchWait;
    }

    Timer jobDuration() {
        return jobDuration;
    }

    void delivered() {
        segmentsDelivered.increment();
    }

    Timer firstSegment() {
        return firstSegment;
    }

    void requestDone() {
        requestsDone.increment();
    }

    void requestFailed() {
        requestsFailed.increment();
    }

    void requestCancelled() {
        requestsCancelled.increment();
    }

    /** Adds {@code delta} jobs to the queued total. */
    void queued(long delta) {
        queued.addAndGet(delta);
    }

    /** Adds {@code delta} dials to the in-flight total. */
    void dialing(long delta) {
        dialing.addAndGet(delta);
    }
}
