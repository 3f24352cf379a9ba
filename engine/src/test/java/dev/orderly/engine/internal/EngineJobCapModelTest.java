package dev.orderly.engine.internal;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Request;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestListener;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.RequestResult;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Client;
import dev.orderly.api.Tier2Exception;
import dev.orderly.engine.RecordingClient;
import dev.orderly.engine.ThreadCensus;
import dev.orderly.testing.Script;
import dev.orderly.testing.ScriptedTier2;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Pattern;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A seeded model of the engine-wide job cap (engine-rules.md, "One engine, many requests"): per seed, one engine with
 * a cap of 2-6 and 2-6 requests at once, each run by its own caller (virtual or platform), with random plans, a
 * {@link ScriptedTier2} each with random refusals, failures, a rare fatal failure and last-stage outputs missing once
 * (so re-runs, and withdrawals when no place is free), some requests cancelled by an interrupt at a random dial and
 * some with a short deadline.
 *
 * <p>Checked, with bounded waits only:
 * <ul>
 *   <li>never more than the cap in a dial or a call at once across every tier2 of the engine (a job is alive for the
 *       cap from before its dial until after its call is closed), and, sampled from the cap's own diagnostic, never
 *       more than the cap held and never a request waiting while a place is free;
 *   <li>every request ends; one that succeeds delivered every segment once, in order; one that ends otherwise
 *       delivered a prefix, in order, and a failure names the unit, why and how many times (or the deadline);
 *   <li>once every request ended: the cap holds 0, nobody waits, no seat is left, no tier2 call open or closed twice,
 *       no thread of the engine alive.
 * </ul>
 * {@code -Dcm.seeds=N} runs more seeds, {@code -Dcm.firstSeed=S} starts elsewhere.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class EngineJobCapModelTest {

    private static final int SEEDS = Integer.getInteger("cm.seeds", 120);
    private static final long FIRST_SEED = Long.getLong("cm.firstSeed", 1);
    private static final Duration REQUEST_BOUND = Duration.ofSeconds(20);

    private static final Pattern GAVE_UP = Pattern.compile(
            "^segment \\d+ stage \\d+ (failed \\d+ times?|timed out \\d+ times?), giving up: .*", Pattern.DOTALL);
    private static final Pattern FATAL = Pattern.compile(
            "^segment \\d+ stage \\d+ failed fatally on attempt \\d+, giving up: .*", Pattern.DOTALL);
    private static final Pattern MISSING = Pattern.compile(
            "^segment \\d+ stage \\d+ output missing after \\d+ re-runs \\(\\d+ successful jobs\\), giving up$");
    private static final Pattern DEADLINE = Pattern.compile(
            "^request \\S+ passed its deadline of .*", Pattern.DOTALL);

    private static final AtomicInteger RERUNS = new AtomicInteger();
    private static final AtomicInteger SEEDS_AT_THE_CAP = new AtomicInteger();
    private static final AtomicInteger SAMPLES_WITH_A_WAITER = new AtomicInteger();

    @Test
    void everySeedKeepsTheCapEndsEveryRequestAndLeavesNothingBehind() throws Exception {
        List<String> problems = new ArrayList<>();
        AtomicIntegerArray outcomes = new AtomicIntegerArray(3);
        long start = System.nanoTime();
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
        System.out.printf("EngineJobCapModelTest: %d seeds from %d in %d ms: %d delivered, %d failed, %d cancelled;"
                + " %d re-runs, %d seeds reached the cap, %d samples saw a request waiting%n", SEEDS, FIRST_SEED,
                (System.nanoTime() - start) / 1_000_000, outcomes.get(0), outcomes.get(1), outcomes.get(2),
                RERUNS.get(), SEEDS_AT_THE_CAP.get(), SAMPLES_WITH_A_WAITER.get());
        assertTrue(problems.isEmpty(), problems.size() + " problem(s):\n" + String.join("\n", problems));
    }


    /**
     * The rule alone ({@link JobShares}, one thread, no engine), driven by random calls as a scheduler makes them: after
     * every call, never more than the limit held, nobody waits while a place is free, the counts add up; and every
     * permit handed on goes to the waiting request with the fewest permits, among equals the one that has waited
     * longest (engine-rules.md, "Who gets a freed place").
     */
    @Test
    void everyPermitHandedOnGoesToTheWaiterWithTheFewestThenTheLongestWaiting() {
        List<String> problems = new ArrayList<>();
        long checked = 0;
        for (long seed = FIRST_SEED; seed < FIRST_SEED + SEEDS * 10L && problems.size() < 10; seed++) {
            SplittableRandom random = new SplittableRandom(seed);
            int limit = random.nextInt(1, 7);
            JobShares shares = new JobShares(limit, null);
            List<JobShares.Seat> seats = new ArrayList<>();
            List<Integer> jobs = new ArrayList<>();
            Map<JobShares.Seat, Long> order = new java.util.HashMap<>();
            long waits = 0;
            for (int step = 0; step < 400 && problems.size() < 10; step++) {
                if (seats.isEmpty() || (seats.size() < 6 && random.nextInt(20) == 0)) {
                    seats.add(shares.join("r" + seats.size()));
                    jobs.add(0);
                    continue;
                }
                int i = random.nextInt(seats.size());
                JobShares.Seat seat = seats.get(i);
                Map<JobShares.Seat, Integer> heldBefore = new java.util.HashMap<>();
                Map<JobShares.Seat, Boolean> grantedBefore = new java.util.HashMap<>();
                for (JobShares.Seat s : seats) {
                    heldBefore.put(s, shares.held(s));
                    grantedBefore.put(s, shares.granted(s));
                }
                Set<JobShares.Seat> candidates = new java.util.HashSet<>(order.keySet());
                Map<JobShares.Seat, Integer> compared = new java.util.HashMap<>(heldBefore);
                // mostly takes and releases (where hand-overs happen); a close now and then ends a seat for good
                int roll = random.nextInt(100);
                int op = roll < 40 ? 0 : roll < 75 ? 1 : roll < 85 ? 2 : roll < 97 ? 3 : roll < 99 ? 4 : 5;
                String call;
                switch (op) {
                    case 0 -> {
                        call = "take";
                        if (shares.take(seat)) {
                            jobs.set(i, jobs.get(i) + 1);
                        }
                    }
                    case 1 -> {
                        if (jobs.get(i) == 0) {
                            continue;
                        }
                        boolean wantsAnother = random.nextBoolean();
                        call = "release(" + wantsAnother + ")";
                        jobs.set(i, jobs.get(i) - 1);
                        compared.put(seat, heldBefore.get(seat) - 1);
                        if (wantsAnother && !shares.isClosed(seat) && !grantedBefore.get(seat)
                                && !order.containsKey(seat)) {
                            candidates.add(seat);
                            order.put(seat, waits++);
                        }
                        shares.release(seat, wantsAnother);
                    }
                    case 2 -> {
                        call = "withdraw";
                        candidates.remove(seat);
                        shares.withdraw(seat);
                    }
                    case 3 -> {
                        if (jobs.get(i) == 0) {
                            continue;
                        }
                        call = "keep";
                        jobs.set(i, jobs.get(i) - 1);
                        candidates.remove(seat);
                        if (grantedBefore.get(seat) || shares.isClosed(seat)) {
                            compared.put(seat, heldBefore.get(seat) - 1);
                        }
                        shares.keep(seat);
                    }
                    case 4 -> {
                        call = "close";
                        candidates.remove(seat);
                        shares.close(seat);
                    }
                    default -> {
                        call = "nothing";
                    }
                }
                String where = "seed " + seed + " step " + step + " " + seat + "." + call + ": " + shares;
                if (!shares.invariantsHold()) {
                    problems.add(where + ": invariants broken");
                }
                for (JobShares.Seat s : seats) {
                    boolean handedNow = shares.granted(s) && !grantedBefore.get(s) && !(op == 3 && s == seat);
                    if (handedNow) {
                        checked++;
                        for (JobShares.Seat c : candidates) {
                            if (c != s && (compared.get(c) < compared.get(s) || (compared.get(c).equals(compared.get(s))
                                    && order.get(c) < order.get(s)))) {
                                problems.add(where + ": handed to " + s + " before " + c);
                            }
                        }
                        if (!candidates.contains(s)) {
                            problems.add(where + ": handed to " + s + ", which did not wait");
                        }
                    }
                    if (shares.isWaiting(s)) {
                        order.putIfAbsent(s, waits++);
                    } else {
                        order.remove(s);
                    }
                    if (shares.held(s) != jobs.get(seats.indexOf(s)) + (shares.granted(s) ? 1 : 0)) {
                        problems.add(where + ": " + s + " holds " + shares.held(s) + " for " + jobs.get(seats.indexOf(s))
                                + " job(s)");
                    }
                }
            }
        }
        System.out.printf("EngineJobCapModelTest: the rule alone, %d seeds, %d hand-overs checked%n", SEEDS * 10,
                checked);
        assertTrue(checked > 0 && problems.isEmpty(), problems.size() + " problem(s):\n" + String.join("\n", problems));
    }

    private void runSeed(long seed, List<String> problems, AtomicIntegerArray outcomes) throws Exception {
        SplittableRandom random = new SplittableRandom(seed);
        int cap = random.nextInt(2, 7);
        int requests = random.nextInt(2, 7);
        ThreadCensus census = new ThreadCensus();
        OrderlyEngine engine = new OrderlyEngine(EngineConfig.builder().maxConcurrentJobs(cap)
                .refusedDelay(Duration.ofMillis(1)).failureDelay(Duration.ofMillis(2)).build(), census);
        EngineJobCap jobCap = engine.jobCap();
        List<String> wrong = new CopyOnWriteArrayList<>();
        AtomicInteger inCall = new AtomicInteger();
        AtomicInteger mostInCall = new AtomicInteger();

        // The cap's own view, sampled while the requests run: never more than the cap held, nobody waits while a
        // place is free.
        AtomicBoolean running = new AtomicBoolean(true);
        Thread monitor = Thread.ofPlatform().daemon().start(() -> {
            while (running.get()) {
                Map<String, JobShares.Share> shares = jobCap.shares();
                int held = shares.values().stream().mapToInt(JobShares.Share::held).sum();
                boolean anyWaiting = shares.values().stream().anyMatch(JobShares.Share::waiting);
                if (held > cap || (anyWaiting && held < cap)) {
                    wrong.add("seed " + seed + ": the cap of " + cap + " reads " + shares);
                    return;
                }
                if (anyWaiting) {
                    SAMPLES_WITH_A_WAITER.incrementAndGet();
                }
                LockSupport.parkNanos(200_000);
            }
        });

        List<Thread> callers = new ArrayList<>();
        List<Runnable> afterwards = new ArrayList<>();
        try {
            for (int i = 0; i < requests; i++) {
                String id = "s" + seed + "-r" + i;
                long requestSeed = random.nextLong();
                RequestPlan plan = new RequestPlan(0, random.nextInt(1, 25), random.nextInt(1, 4),
                        random.nextInt(1, 7));
                int mode = random.nextInt(6); // 0: cancelled at a dial, 1: a deadline, else neither
                int cancelAtDial = mode == 0 ? random.nextInt(1, 30) : -1;
                Duration deadline = mode == 1 ? Duration.ofMillis(random.nextInt(2, 120)) : null;
                Set<Long> lostOnce = ConcurrentHashMap.newKeySet();
                ScriptedTier2 scripted = new ScriptedTier2(plan, null, job -> {
                    SplittableRandom r = new SplittableRandom(requestSeed ^ job.key().segment() * 0x9E3779B97F4A7C15L
                            ^ job.key().stage() * 0xBF58476D1CE4E5B9L ^ job.attempt() * 0x94D049BB133111EBL);
                    // a dial takes a moment, so that jobs of different requests overlap
                    LockSupport.parkNanos(r.nextInt(0, 300_000));
                    int p = r.nextInt(1000);
                    if (p < 120) {
                        return Script.refuse(1);
                    }
                    if (p < 170) {
                        return Script.fail();
                    }
                    if (p < 172) {
                        return Script.fatal();
                    }
                    if (job.key().stage() == plan.lastStage() && p < 330 && lostOnce.add(job.key().segment())) {
                        return Script.loseOutput();
                    }
                    return Script.succeed();
                });
                Thread[] caller = new Thread[1];
                AtomicInteger dials = new AtomicInteger();
                Tier2Client counted = job -> {
                    int now = inCall.incrementAndGet();
                    mostInCall.accumulateAndGet(now, Math::max);
                    if (now > cap) {
                        wrong.add("seed " + seed + ": " + now + " jobs in a dial or a call at once, cap " + cap
                                + "; " + jobCap.shares());
                    }
                    if (dials.incrementAndGet() == cancelAtDial) {
                        caller[0].interrupt();
                    }
                    boolean dialed = false;
                    try {
                        Tier2Call call = scripted.dial(job);
                        dialed = true;
                        return new CountedCall(call, inCall, job);
                    } finally {
                        if (!dialed) {
                            inCall.decrementAndGet();
                        }
                    }
                };
                RecordingClient client = new RecordingClient();
                Request request = Request.of(plan, counted, scripted.outputs(), client).withId(id)
                        .withListener(new RequestListener() {
                            @Override
                            public void onRerun(JobKey key) {
                                RERUNS.incrementAndGet();
                            }
                        });
                if (deadline != null) {
                    request = request.withDeadline(deadline);
                }
                Request toRun = request;
                Runnable body = () -> {
                    String outcome;
                    try {
                        RequestResult result = engine.run(toRun);
                        outcome = "delivered";
                        if (!client.segments().equals(range(plan.endSegment()))
                                || result.segmentsDelivered() != plan.endSegment()) {
                            wrong.add(id + " succeeded with " + client.segments() + " of " + plan);
                        }
                    } catch (RequestFailedException e) {
                        outcome = "failed";
                        String message = String.valueOf(e.getMessage());
                        boolean unitNamed = e.key().isPresent() && (GAVE_UP.matcher(message).matches()
                                || FATAL.matcher(message).matches() || MISSING.matcher(message).matches());
                        boolean deadlinePassed = deadline != null && DEADLINE.matcher(message).matches();
                        if (!unitNamed && !deadlinePassed) {
                            wrong.add(id + " failed with an unexpected message: " + message + " key " + e.key());
                        }
                    } catch (InterruptedException e) {
                        outcome = "cancelled";
                        if (cancelAtDial < 0) {
                            wrong.add(id + " cancelled, never interrupted");
                        }
                    } catch (Throwable e) {
                        outcome = "threw";
                        wrong.add(id + " threw " + e);
                    } finally {
                        Thread.interrupted();
                    }
                    if (!client.segments().equals(range(client.segments().size()))) {
                        wrong.add(id + " delivered out of order or twice: " + client.segments());
                    }
                    if (client.overlaps() != 0 || !client.wrongOutputs().isEmpty()) {
                        wrong.add(id + ": client overlaps " + client.overlaps() + ", wrong " + client.wrongOutputs());
                    }
                    outcomes.incrementAndGet(switch (outcome) {
                        case "delivered" -> 0;
                        case "failed" -> 1;
                        default -> 2;
                    });
                };
                caller[0] = random.nextBoolean() ? Thread.ofVirtual().unstarted(body)
                        : Thread.ofPlatform().unstarted(body);
                callers.add(caller[0]);
                afterwards.add(() -> {
                    if (!Quiet.within(Duration.ofSeconds(2), () -> scripted.openCalls() == 0)) {
                        wrong.add(id + ": " + scripted.openCalls() + " call(s) open after run returned");
                    }
                    if (scripted.doubleCloses() != 0) {
                        wrong.add(id + ": " + scripted.doubleCloses() + " call(s) closed twice");
                    }
                    if (!scripted.dependencyViolations().isEmpty()) {
                        wrong.add(id + ": " + scripted.dependencyViolations());
                    }
                });
            }
            callers.forEach(Thread::start);
            for (Thread t : callers) {
                if (!t.join(REQUEST_BOUND)) {
                    problems.add("seed " + seed + ": a request did not end within " + REQUEST_BOUND + "; cap "
                            + jobCap + " " + jobCap.shares());
                    callers.forEach(Thread::interrupt);
                    for (Thread u : callers) {
                        u.join(Duration.ofSeconds(5));
                    }
                    return;
                }
            }
        } finally {
            running.set(false);
            monitor.join(Duration.ofSeconds(5));
        }
        afterwards.forEach(Runnable::run);
        if (!Quiet.within(Duration.ofSeconds(2), () -> census.alive() == 0)) {
            wrong.add("seed " + seed + ": " + census.alive() + " engine thread(s) alive after every request ended");
        }
        if (inCall.get() != 0) {
            wrong.add("seed " + seed + ": " + inCall.get() + " dial(s) or call(s) open after every request ended");
        }
        if (jobCap.alive() != 0 || jobCap.waiting() != 0 || !jobCap.shares().isEmpty()) {
            wrong.add("seed " + seed + ": after every request ended the cap reads " + jobCap + " " + jobCap.shares());
        }
        if (mostInCall.get() == cap) {
            SEEDS_AT_THE_CAP.incrementAndGet();
        }
        if (mostInCall.get() > cap) {
            wrong.add("seed " + seed + ": " + mostInCall.get() + " at once, cap " + cap);
        }
        problems.addAll(wrong);
    }

    private static List<Long> range(long end) {
        return LongStream.range(0, end).boxed().toList();
    }

    /** A call counted out of the engine-wide count once, when the engine closes it. */
    private static final class CountedCall implements Tier2Call {
        private final Tier2Call call;
        private final AtomicInteger inCall;
        private final AtomicBoolean closed = new AtomicBoolean();
        private final int workNanos;

        CountedCall(Tier2Call call, AtomicInteger inCall, Job job) {
            this.call = call;
            this.inCall = inCall;
            this.workNanos = new SplittableRandom(job.key().segment() * 31L + job.attempt()).nextInt(0, 500_000);
        }

        @Override
        public void await() throws Tier2Exception, InterruptedException {
            // the job's work on the tier2: a moment, during which the call is open
            LockSupport.parkNanos(workNanos);
            if (Thread.interrupted()) {
                throw new InterruptedException("cancelled");
            }
            call.await();
        }

        @Override
        public void close() {
            try {
                call.close();
            } finally {
                if (closed.compareAndSet(false, true)) {
                    inCall.decrementAndGet();
                }
            }
        }
    }

    /** Bounded waits for a condition, polled. */
    private static final class Quiet {
        static boolean within(Duration bound, java.util.function.BooleanSupplier condition) {
            try {
                await().pollInSameThread().pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(5)).atMost(bound)
                        .until(condition::getAsBoolean);
                return true;
            } catch (org.awaitility.core.ConditionTimeoutException e) {
                return false;
            }
        }
    }
}
