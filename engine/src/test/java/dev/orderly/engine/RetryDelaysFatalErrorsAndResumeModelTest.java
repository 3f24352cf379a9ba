package dev.orderly.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.OutputStore;
import dev.orderly.api.Request;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestListener;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.RequestResult;
import dev.orderly.api.SegmentConsumer;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Client;
import dev.orderly.api.Tier2Exception;
import dev.orderly.testing.OutputSink;
import dev.orderly.testing.Script;
import dev.orderly.testing.ScriptedTier2;
import dev.orderly.testing.Tier2Event;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A seeded model of whole requests, for what the randomized-faults test leaves out: the retry delays' own values,
 * fatal errors (a tier2 client throwing a {@code RuntimeException} or an {@code Error}, an {@code OutputStore} or a
 * {@code SegmentConsumer} that throws, a listener that throws), and resume (a request killed midway and started again
 * from the first segment not delivered).
 *
 * <p>Each seed draws a plan (1-30 segments, 1-3 stages, 1-10 workers, ordered or not) and a script per dial, decided
 * by the seed, the unit and the attempt only. What is checked, against the guide (embedding.md, engine-rules.md):
 * <ul>
 *   <li>after a job got in and failed (RETRYABLE, EXECUTION_TIMEOUT), its unit's next dial comes no sooner than
 *       {@code failureDelay} after {@code onFailed} (a lower bound: machine noise only makes it easier);
 *   <li>attempts number each unit's dials 1, 2, 3... across all its jobs; no unit hears more than {@code maxFailures}
 *       failures or {@code maxExecutionTimeouts} timeouts;
 *   <li>a run that succeeds delivers every segment once, in order; a run that fails throws a
 *       {@link RequestFailedException} whose key and message are one of the documented forms, and which agrees with
 *       what happened (the unit gave up after exactly its limit; the fatal dial named is one that was made);
 *   <li>a listener that throws changes nothing;
 *   <li>with resume, a segment already in the store is not run (none of its units dialed) and is read once; killed
 *       and resumed from the first segment not delivered, the client has every segment exactly once, in order.
 * </ul>
 * The time-of-delay checks use real time (the engine's clock hooks only move not-before times, waits stay real), with
 * a 1 ms refused delay and a 15 ms failure delay; {@link #aFailureDelayIsSatOutOnceNotAfterEveryRefusalThatFollows}
 * checks the "once" with bounds three orders of magnitude apart.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RetryDelaysFatalErrorsAndResumeModelTest {

    private static final int SEEDS = Integer.getInteger("rm.seeds", 60);
    private static final long FIRST_SEED = Long.getLong("rm.firstSeed", 1);
    private static final Duration FAILURE_DELAY = Duration.ofMillis(15);

    @Test
    void everySeedKeepsTheDocumentedDelaysOutcomesAndResume() throws Exception {
        List<String> problems = new ArrayList<>();
        int[] outcomes = new int[2];
        for (long seed = FIRST_SEED; seed < FIRST_SEED + SEEDS; seed++) {
            try {
                runSeed(seed, problems, outcomes);
            } catch (AssertionError | Exception e) {
                problems.add("seed " + seed + ": " + e);
            }
            if (problems.size() > 20) {
                break;
            }
        }
        assertTrue(problems.isEmpty(), problems.size() + " problem(s) (" + outcomes[0] + " delivered, " + outcomes[1]
                + " failed):\n" + String.join("\n", problems));
    }

    /** One dial's scripted outcome. */
    enum Kind { SUCCEED, REFUSE, UNREACHABLE, FAIL, TIME_OUT, LOSE, FATAL, THROW_ON_DIAL, THROW_ON_AWAIT, ERROR }

    static Kind kindOf(long seed, JobKey key, int attempt, boolean lastStage, boolean fatalsAllowed) {
        SplittableRandom r = new SplittableRandom(seed * 1_000_003L + key.segment() * 7919L + key.stage() * 131L
                + attempt);
        int p = r.nextInt(1000);
        if (p < 150) {
            return Kind.REFUSE;
        }
        if (p < 200) {
            return Kind.UNREACHABLE;
        }
        if (p < 280) {
            return Kind.FAIL;
        }
        if (p < 310) {
            return Kind.TIME_OUT;
        }
        if (p < 340 && lastStage) {
            return Kind.LOSE;
        }
        if (fatalsAllowed && p >= 990) {
            return Kind.values()[Kind.FATAL.ordinal() + (p - 990) % 4];
        }
        return Kind.SUCCEED;
    }

    /** What the listener heard, per unit, in order, with the time it heard it. */
    static final class Heard implements RequestListener {
        record Event(String what, int attempt, long nanos, Tier2Exception.Kind kind) {
        }

        final Map<JobKey, List<Event>> byUnit = new ConcurrentHashMap<>();
        final List<Long> deliveredSegments = new CopyOnWriteArrayList<>();
        final long seed;
        final java.util.concurrent.atomic.AtomicLong calls = new java.util.concurrent.atomic.AtomicLong();
        final AtomicInteger thrown = new AtomicInteger();

        Heard(long seed) {
            this.seed = seed;
        }

        private void add(JobKey key, String what, int attempt, Tier2Exception.Kind kind) {
            byUnit.computeIfAbsent(key, k -> new CopyOnWriteArrayList<>())
                    .add(new Event(what, attempt, System.nanoTime(), kind));
            // the listener throws now and then (one call in ten, by the seed): the request must not care
            if (new SplittableRandom(seed * 31 + calls.incrementAndGet()).nextInt(10) == 0) {
                thrown.incrementAndGet();
                if (thrown.get() % 2 == 0) {
                    throw new IllegalStateException("listener bug");
                }
                throw new AssertionError("oops");
            }
        }

        @Override
        public void onDial(Job job) {
            add(job.key(), "dial", job.attempt(), null);
        }

        @Override
        public void onRefused(Job job, Tier2Exception cause) {
            add(job.key(), "refused", job.attempt(), cause.kind());
        }

        @Override
        public void onFailed(Job job, Tier2Exception cause) {
            add(job.key(), "failed", job.attempt(), cause.kind());
        }

        @Override
        public void onJobDone(Job job) {
            add(job.key(), "done", job.attempt(), null);
        }

        @Override
        public void onSegmentDelivered(long segment) {
            deliveredSegments.add(segment);
        }
    }

    /** A store that counts reads and look-ups, and may throw at one segment's read. */
    static final class CountingStore implements OutputStore {
        final InMemoryOutputStore inner = new InMemoryOutputStore();
        final Map<Long, AtomicInteger> reads = new ConcurrentHashMap<>();
        volatile long throwAt = -1;
        volatile Throwable toThrow;

        @Override
        public Optional<byte[]> read(long segment) throws IOException {
            reads.computeIfAbsent(segment, s -> new AtomicInteger()).incrementAndGet();
            if (segment == throwAt) {
                Throwable t = toThrow;
                if (t instanceof IOException io) {
                    throw io;
                }
                if (t instanceof RuntimeException re) {
                    throw re;
                }
                throw (Error) t;
            }
            return inner.read(segment);
        }

        @Override
        public boolean contains(long segment) {
            return inner.read(segment).isPresent();
        }
    }

    /** The client: records, checks outputs, and may throw at one segment. */
    static final class Client implements SegmentConsumer {
        final List<Long> got = new CopyOnWriteArrayList<>();
        final List<String> wrong = new CopyOnWriteArrayList<>();
        final long throwAt;
        final Exception toThrow;

        Client(long throwAt, Exception toThrow) {
            this.throwAt = throwAt;
            this.toThrow = toThrow;
        }

        @Override
        public void accept(long segment, byte[] output) throws Exception {
            if (segment == throwAt) {
                throw toThrow;
            }
            if (!Arrays.equals(output, ScriptedTier2.outputOf(segment))) {
                wrong.add("segment " + segment);
            }
            got.add(segment);
        }
    }

    /** A tier2 that throws an {@code Error} from dial where the script says so, else the scripted tier2. */
    static final class Tier2 implements Tier2Client {
        final ScriptedTier2 scripted;
        final long seed;
        final int lastStage;
        final boolean fatals;
        final Set<String> fatalDials = ConcurrentHashMap.newKeySet();

        Tier2(long seed, RequestPlan plan, OutputStore sinkStore, boolean fatals) {
            this.seed = seed;
            this.lastStage = plan.lastStage();
            this.fatals = fatals;
            InMemoryOutputStore sink = ((CountingStore) sinkStore).inner;
            this.scripted = new ScriptedTier2(plan, OutputSink.of(sink::write, sink::delete),
                    job -> switch (kindOf(seed, job.key(), job.attempt(), job.key().stage() == lastStage, fatals)) {
                        case REFUSE -> Script.refuse(1);
                        case UNREACHABLE -> Script.unreachable(1);
                        case FAIL -> Script.fail();
                        case TIME_OUT -> Script.timeOut();
                        case LOSE -> Script.loseOutput();
                        case FATAL -> Script.fatal();
                        case THROW_ON_DIAL -> Script.throwOnDial(new IllegalStateException("client bug on dial"));
                        case THROW_ON_AWAIT -> Script.throwOnAwait(new IllegalStateException("client bug on await"));
                        default -> Script.succeed();
                    });
        }

        @Override
        public Tier2Call dial(Job job) throws Tier2Exception, InterruptedException {
            Kind kind = kindOf(seed, job.key(), job.attempt(), job.key().stage() == lastStage, fatals);
            if (kind.ordinal() >= Kind.FATAL.ordinal()) {
                fatalDials.add(job.key() + "#" + job.attempt() + "#" + kind);
            }
            if (kind == Kind.ERROR) {
                throw new AssertionError("a test fake's assertion in dial of " + job.key());
            }
            return scripted.dial(job);
        }
    }

    private static final Pattern GAVE_UP = Pattern.compile(
            "^(segment (\\d+) stage (\\d+)) (failed (\\d+) times?|timed out (\\d+) times?), giving up: .*", Pattern.DOTALL);
    private static final Pattern FATAL = Pattern.compile(
            "^(segment (\\d+) stage (\\d+)) failed fatally on attempt (\\d+), giving up: .*", Pattern.DOTALL);
    private static final Pattern ERROR = Pattern.compile(
            "^(segment (\\d+) stage (\\d+)) failed with java.lang.AssertionError: .* on attempt (\\d+), giving up$",
            Pattern.DOTALL);
    private static final Pattern MISSING = Pattern.compile(
            "^(segment (\\d+) stage (\\d+)) output missing after 3 re-runs \\((\\d+) successful jobs\\), giving up$");
    private static final Pattern STORE = Pattern.compile(
            "^(segment (\\d+) stage (\\d+)) output could not be read, giving up: .*", Pattern.DOTALL);
    private static final Pattern CLIENT = Pattern.compile(
            "^(segment (\\d+) stage (\\d+)): the client failed on segment (\\d+): .*", Pattern.DOTALL);

    private void runSeed(long seed, List<String> problems, int[] outcomes) throws Exception {
        SplittableRandom r = new SplittableRandom(seed);
        long start = r.nextLong(0, 100);
        int segments = r.nextInt(1, 31);
        RequestPlan plan = new RequestPlan(start, start + segments, r.nextInt(1, 4), r.nextInt(1, 11));
        boolean ordered = r.nextBoolean();
        int mode = r.nextInt(4); // 0 tier2 faults with fatals, 1 store throws, 2 client throws, 3 resume
        EngineConfig config = EngineConfig.builder().refusedDelay(Duration.ofMillis(1)).failureDelay(FAILURE_DELAY)
                .ordered(ordered).build();
        String where = "seed " + seed + " " + plan + " ordered=" + ordered + " mode=" + mode;
        CountingStore store = new CountingStore();
        long clientThrowAt = -1;
        Exception clientError = null;
        if (mode == 1) {
            store.throwAt = start + r.nextInt(segments);
            int which = r.nextInt(3);
            store.toThrow = which == 0 ? new IOException("disk gone") : which == 1
                    ? new IllegalStateException("store bug") : new AssertionError("store assertion");
        } else if (mode == 2) {
            clientThrowAt = start + r.nextInt(segments);
            clientError = r.nextBoolean() ? new IOException("client's socket closed")
                    : new IllegalArgumentException("client bug");
        }
        Set<Long> stored = new HashSet<>();
        if (mode == 3) {
            for (long s = start; s < start + segments; s++) {
                if (r.nextInt(3) == 0) {
                    store.inner.write(s, ScriptedTier2.outputOf(s));
                    stored.add(s);
                }
            }
            // killed at a random segment (the client throws), then resumed from the first segment not delivered
            clientThrowAt = start + r.nextInt(segments + 1);
            clientError = new IllegalStateException("killed");
        }
        Tier2 tier2 = new Tier2(seed, plan, store, mode == 0);
        Client client = new Client(clientThrowAt, clientError);
        Heard heard = new Heard(seed);
        Request request = new Request("m62-" + seed, plan, tier2, store, client, heard)
                .withDeadline(Duration.ofSeconds(30)).withResume(mode == 3);
        RequestResult result = null;
        RequestFailedException failure = null;
        try {
            result = Orderly.engine(config).run(request);
            outcomes[0]++;
        } catch (RequestFailedException e) {
            failure = e;
            outcomes[1]++;
        }
        checkDelaysAndCounts(where, heard, config, problems);
        if (tier2.scripted.openCalls() != 0) {
            problems.add(where + ": " + tier2.scripted.openCalls() + " call(s) left open");
        }
        if (!client.wrong.isEmpty()) {
            problems.add(where + ": wrong outputs " + client.wrong);
        }
        List<Long> expectedPrefix = Fixtures.range(start, start + client.got.size());
        if (!client.got.equals(expectedPrefix)) {
            problems.add(where + ": delivered out of order or twice: " + client.got);
        }
        if (mode == 3) {
            checkNotRunAndReadOnce(where + " (first run)", stored, tier2, store, client.got, problems);
        }
        if (result != null) {
            if (client.got.size() != segments) {
                problems.add(where + ": succeeded with " + client.got.size() + " of " + segments + " delivered");
            }
            if (mode == 1 || (mode == 2 && clientThrowAt >= 0)) {
                problems.add(where + ": succeeded although the " + (mode == 1 ? "store" : "client") + " threw");
            }
            if (plan.stages() == 1 && !tier2.fatalDials.isEmpty()) {
                problems.add(where + ": succeeded after fatal dials " + tier2.fatalDials);
            }
            return;
        }
        checkFailure(where, failure, plan, heard, tier2, store, clientThrowAt, clientError, client, problems);
        if (mode != 3) {
            return;
        }
        boolean killed = failure.getMessage().contains("the client failed on segment " + clientThrowAt);
        if (!killed) {
            return; // the tier2's faults gave up first: nothing to resume from in this model
        }
        // Resume: from the first segment not delivered, with the same store.
        long next = start + failure.partialResult().orElseThrow().segmentsDelivered();
        if (next != start + client.got.size()) {
            problems.add(where + ": partial result says " + (next - start) + " delivered, the client has "
                    + client.got.size());
            return;
        }
        RequestPlan rest = new RequestPlan(next, plan.endSegment(), plan.stages(), plan.workers());
        Set<Long> storedNow = new HashSet<>();
        for (long s = next; s < plan.endSegment(); s++) {
            if (store.inner.read(s).isPresent()) {
                storedNow.add(s);
            }
        }
        store.reads.clear();
        Tier2 tier2Again = new Tier2(seed + 7, rest, store, false);
        Client clientAgain = new Client(-1, null);
        Heard heardAgain = new Heard(seed + 7);
        RequestResult again;
        try {
            again = Orderly.engine(config).run(new Request("m62r-" + seed, rest, tier2Again, store, clientAgain,
                    heardAgain).withDeadline(Duration.ofSeconds(30)).withResume(true));
        } catch (RequestFailedException e) {
            // the faults of the second run may give up too; then only what it delivered is checked
            again = null;
            if (!GAVE_UP.matcher(e.getMessage()).matches() && !MISSING.matcher(e.getMessage()).matches()) {
                problems.add(where + ": resumed run failed unexpectedly: " + e.getMessage());
            }
        }
        checkDelaysAndCounts(where + " (resumed)", heardAgain, config, problems);
        List<Long> all = new ArrayList<>(client.got);
        all.addAll(clientAgain.got);
        List<Long> expectAll = Fixtures.range(start, start + all.size());
        if (!all.equals(expectAll) || (again != null && all.size() != segments)) {
            problems.add(where + ": killed and resumed, the client got " + all);
        }
        checkNotRunAndReadOnce(where + " (resumed)", storedNow, tier2Again, store, clientAgain.got, problems);
        if (again != null && again.segmentsDelivered() != segments - (next - start)) {
            problems.add(where + ": resumed result says " + again.segmentsDelivered() + " delivered");
        }
    }

    /** A stored segment is delivered from the store: none of its units dialed, and it is read once. */
    private static void checkNotRunAndReadOnce(String where, Set<Long> stored, Tier2 tier2, CountingStore store,
            List<Long> delivered, List<String> problems) {
        List<JobKey> dialedStored = tier2.scripted.log().events().stream()
                .filter(e -> e.type() == Tier2Event.Type.DIALED && stored.contains(e.key().segment()))
                .map(Tier2Event::key).distinct().toList();
        if (!dialedStored.isEmpty()) {
            problems.add(where + ": units of segments already in the store were dialed: " + dialedStored);
        }
        for (long s : delivered) {
            if (stored.contains(s)) {
                AtomicInteger n = store.reads.get(s);
                int reads = n == null ? 0 : n.get();
                if (reads != 1) {
                    problems.add(where + ": stored segment " + s + " read " + reads + " times, not once");
                }
            }
        }
    }

    /** The delays between a unit's dials, its attempt numbers and its give-up counts. */
    private static void checkDelaysAndCounts(String where, Heard heard, EngineConfig config, List<String> problems) {
        long failureNanos = config.failureDelay().toNanos();
        for (var entry : heard.byUnit.entrySet()) {
            JobKey key = entry.getKey();
            List<Heard.Event> events = entry.getValue();
            int expectedAttempt = 1;
            int failures = 0;
            int timeouts = 0;
            Heard.Event lastFailure = null;
            for (Heard.Event e : events) {
                switch (e.what()) {
                    case "dial" -> {
                        if (e.attempt() != expectedAttempt) {
                            problems.add(where + ": " + key + " dialed attempt " + e.attempt() + ", expected "
                                    + expectedAttempt);
                        }
                        expectedAttempt = e.attempt() + 1;
                        if (lastFailure != null && e.nanos() - lastFailure.nanos() < failureNanos) {
                            problems.add(where + ": " + key + " redialed (attempt " + e.attempt() + ") "
                                    + TimeUnit.NANOSECONDS.toMicros(e.nanos() - lastFailure.nanos())
                                    + " us after it got in and failed, failureDelay is " + config.failureDelay());
                        }
                        lastFailure = null;
                    }
                    case "failed" -> {
                        if (e.kind() == Tier2Exception.Kind.RETRYABLE) {
                            failures++;
                            lastFailure = e;
                        } else if (e.kind() == Tier2Exception.Kind.EXECUTION_TIMEOUT) {
                            timeouts++;
                            lastFailure = e;
                        }
                    }
                    default -> {
                        // refused, done: no lower bound on the next dial
                    }
                }
            }
            if (failures > config.maxFailures() || timeouts > config.maxExecutionTimeouts()) {
                problems.add(where + ": " + key + " heard " + failures + " failures and " + timeouts + " timeouts");
            }
        }
    }

    private static int count(Heard heard, JobKey key, Tier2Exception.Kind kind) {
        return (int) heard.byUnit.getOrDefault(key, List.of()).stream()
                .filter(e -> e.what().equals("failed") && e.kind() == kind).count();
    }

    private static void checkFailure(String where, RequestFailedException failure, RequestPlan plan, Heard heard,
            Tier2 tier2, CountingStore store, long clientThrowAt, Exception clientError, Client client,
            List<String> problems) {
        String message = failure.getMessage();
        String at = where + ": failed with '" + message + "'";
        if (failure.partialResult().isEmpty()) {
            problems.add(at + ": no partial result");
        } else if (failure.partialResult().get().segmentsDelivered() != client.got.size()) {
            problems.add(at + ": partial result " + failure.partialResult().get().segmentsDelivered()
                    + " delivered, the client has " + client.got.size());
        }
        if (failure.key().isEmpty()) {
            problems.add(at + ": no key");
            return;
        }
        JobKey key = failure.key().get();
        Matcher m;
        if ((m = GAVE_UP.matcher(message)).matches()) {
            boolean timedOut = m.group(6) != null;
            int n = Integer.parseInt(timedOut ? m.group(6) : m.group(5));
            int limit = timedOut ? 2 : 5;
            int heardOf = count(heard, key, timedOut ? Tier2Exception.Kind.EXECUTION_TIMEOUT
                    : Tier2Exception.Kind.RETRYABLE);
            if (n != limit || heardOf != limit || !m.group(1).equals(key.toString())) {
                problems.add(at + ": gave up after " + n + ", the listener heard " + heardOf + ", key " + key);
            }
        } else if ((m = FATAL.matcher(message)).matches()) {
            int attempt = Integer.parseInt(m.group(4));
            boolean made = tier2.fatalDials.stream().anyMatch(d -> d.startsWith(key + "#" + attempt + "#"));
            if (!made || !m.group(1).equals(key.toString())
                    || !(failure.getCause() instanceof Tier2Exception t && t.kind() == Tier2Exception.Kind.FATAL)) {
                problems.add(at + ": no such fatal dial (" + tier2.fatalDials + ") or wrong cause "
                        + failure.getCause());
            }
        } else if ((m = ERROR.matcher(message)).matches()) {
            int attempt = Integer.parseInt(m.group(4));
            if (!tier2.fatalDials.contains(key + "#" + attempt + "#ERROR")
                    || !(failure.getCause() instanceof AssertionError)) {
                problems.add(at + ": no such Error dial (" + tier2.fatalDials + ") or cause " + failure.getCause());
            }
        } else if ((m = MISSING.matcher(message)).matches()) {
            if (key.stage() != plan.lastStage() || Integer.parseInt(m.group(4)) != 4) {
                problems.add(at + ": wrong key or count");
            }
        } else if ((m = STORE.matcher(message)).matches()) {
            if (!key.equals(new JobKey(store.throwAt, plan.lastStage())) || failure.getCause() != store.toThrow
                    || client.got.size() != store.throwAt - plan.startSegment()) {
                problems.add(at + ": key, cause or delivered count wrong: " + failure.getCause() + ", "
                        + client.got.size());
            }
        } else if ((m = CLIENT.matcher(message)).matches()) {
            if (!key.equals(new JobKey(clientThrowAt, plan.lastStage())) || failure.getCause() != clientError
                    || Long.parseLong(m.group(4)) != clientThrowAt
                    || client.got.size() != clientThrowAt - plan.startSegment()) {
                problems.add(at + ": key, cause or delivered count wrong: " + failure.getCause());
            }
        } else {
            problems.add(at + ": not a documented failure (cause " + failure.getCause() + ")");
        }
    }

    /**
     * "5 s once": after a failure the next dial waits {@code failureDelay}; the refusals that follow wait only
     * {@code refusedDelay}, not the failure delay again. One unit, one worker, so no other job competes for the
     * window. Bounds: 1 s against 1 ms, three orders of magnitude apart.
     */
    @Test
    void aFailureDelayIsSatOutOnceNotAfterEveryRefusalThatFollows() throws Exception {
        RequestPlan plan = new RequestPlan(0, 1, 1, 1);
        JobKey unit = new JobKey(0, 0);
        for (boolean ordered : new boolean[] {true, false}) {
            EngineConfig config = EngineConfig.builder().refusedDelay(Duration.ofMillis(1))
                    .failureDelay(Duration.ofSeconds(1)).ordered(ordered).build();
            ScriptedTier2 tier2 = new ScriptedTier2(plan).script(unit, Script.fail().thenRefuse(3).thenSucceed());
            List<Long> dials = new CopyOnWriteArrayList<>();
            RequestListener listener = new RequestListener() {
                @Override
                public void onDial(Job job) {
                    dials.add(System.nanoTime());
                }
            };
            Orderly.engine(config).run(Request.of(plan, tier2, tier2.outputs(), new RecordingClient())
                    .withListener(listener));
            assertEquals(5, dials.size(), "ordered=" + ordered);
            long afterFailure = dials.get(1) - dials.get(0);
            long afterRefusals = dials.get(4) - dials.get(1);
            assertTrue(afterFailure >= TimeUnit.SECONDS.toNanos(1), "ordered=" + ordered + ": " + afterFailure);
            assertTrue(afterRefusals < TimeUnit.MILLISECONDS.toNanos(900), "ordered=" + ordered
                    + ": three refusals after the failure took " + TimeUnit.NANOSECONDS.toMillis(afterRefusals)
                    + " ms: the failure delay was sat out again");
        }
    }

    /**
     * The table "Errors, by where they are thrown": a {@code VirtualMachineError} from the store, the client, the
     * tier2 client or the listener comes out of {@code run} as itself, the listener having heard
     * {@code onRequestFailed} with it as the cause; an {@code Error} from a call's {@code await} fails the request
     * naming the unit with the Error as the cause; an {@code InterruptedException} of the client's own is the
     * client's failure, naming its segment.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"store", "client", "dial", "listener", "await-error",
            "client-interrupted"})
    void eachThrowerEndsTheRequestAsTheTableSays(String where) throws Exception {
        RequestPlan plan = new RequestPlan(0, 3, 1, 2);
        StackOverflowError vme = new StackOverflowError("deep");
        AssertionError error = new AssertionError("call bug");
        InterruptedException own = new InterruptedException("the client's own");
        ScriptedTier2 scripted = new ScriptedTier2(plan);
        Tier2Client tier2 = job -> {
            if (where.equals("dial") && job.key().segment() == 1) {
                throw vme;
            }
            Tier2Call call = scripted.dial(job);
            if (!where.equals("await-error") || job.key().segment() != 1) {
                return call;
            }
            return new Tier2Call() {
                @Override
                public void await() {
                    throw error;
                }

                @Override
                public void close() {
                    call.close();
                }
            };
        };
        OutputStore store = segment -> {
            if (where.equals("store") && segment == 1) {
                throw vme;
            }
            return scripted.outputs().read(segment);
        };
        SegmentConsumer client = (segment, output) -> {
            if (segment == 1 && where.equals("client")) {
                throw vme;
            }
            if (segment == 1 && where.equals("client-interrupted")) {
                throw own;
            }
        };
        List<RequestFailedException> heard = new CopyOnWriteArrayList<>();
        RequestListener listener = new RequestListener() {
            @Override
            public void onDial(Job job) {
                if (where.equals("listener") && job.key().segment() == 1) {
                    throw vme;
                }
            }

            @Override
            public void onRequestFailed(RequestResult soFar, RequestFailedException failure) {
                heard.add(failure);
            }
        };
        Throwable thrown = null;
        try {
            Orderly.engine(Fixtures.fast()).run(new Request("table-" + where, plan, tier2, store, client, listener));
        } catch (Throwable t) {
            thrown = t;
        }
        Thread.interrupted(); // a client's own interrupt may be left set on the walker, never on the caller
        assertEquals(0, scripted.openCalls(), where);
        assertEquals(1, heard.size(), where + ": " + thrown);
        switch (where) {
            case "await-error" -> {
                RequestFailedException e = (RequestFailedException) thrown;
                assertEquals(Optional.of(new JobKey(1, 0)), e.key(), where);
                assertTrue(e.getCause() == error, where + ": " + e.getCause());
                assertEquals("segment 1 stage 0 failed with java.lang.AssertionError: call bug on attempt 1, giving up",
                        e.getMessage());
            }
            case "client-interrupted" -> {
                RequestFailedException e = (RequestFailedException) thrown;
                assertEquals(Optional.of(new JobKey(1, 0)), e.key(), where);
                assertTrue(e.getCause() == own, where + ": " + e.getCause());
                assertTrue(e.getMessage().startsWith("segment 1 stage 0: the client failed on segment 1: "), e.getMessage());
            }
            default -> {
                assertTrue(thrown == vme, where + ": run threw " + thrown);
                assertTrue(heard.getFirst().getCause() == vme, where + ": heard " + heard.getFirst().getCause());
            }
        }
    }
}
