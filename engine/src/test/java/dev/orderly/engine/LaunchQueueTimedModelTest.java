package dev.orderly.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.JobKey;
import dev.orderly.engine.LaunchBook.Wait;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A reference model of the launch queue's rules as the docs state them (docs/guide/launch-queue.md and the javadoc of
 * LaunchQueue), with a fake clock: refused and failed delays, slotFreed and its early turn, leaveWithoutDialing,
 * push-out of a timed waiter, interrupts, withdrawal. Real timers never fire (delays are units of 1000 s); the driver
 * plays the timer by signalling an expired waiter's condition, one at a time, head first.
 */
class LaunchQueueTimedModelTest {

    static final long U = 1_000_000_000_000L; // 1000 s of fake time
    static final long REFUSED = 3 * U;
    static final long FAILED = 7 * U;
    // a few seconds; -Dqm.seeds=800 -Dqm.steps=150 for a longer look
    static final int SEEDS = Integer.getInteger("qm.seeds", 100);
    static final int STEPS = Integer.getInteger("qm.steps", 120);
    static final long FIRST_SEED = Long.getLong("qm.firstSeed", 1L);

    enum Out { DIAL, RELEASED, INTERRUPTED }

    enum St { TIMED, PARKED }

    static final class M {
        long notBefore;
        boolean refusedWait;
        boolean hurried;

        M(long notBefore) {
            this.notBefore = notBefore;
        }
    }

    /** The model: no threads, the rules from the docs. */
    static final class Model {
        final int window;
        long now;
        final TreeMap<JobKey, M> queued = new TreeMap<>();
        final Set<JobKey> dialers = new HashSet<>();
        final Map<JobKey, St> waiting = new HashMap<>();
        final Map<JobKey, Out> ended = new LinkedHashMap<>();
        final List<JobKey> joins = new ArrayList<>();

        Model(int window) {
            this.window = window;
        }

        void await(JobKey key) {
            if (!queued.containsKey(key)) {
                if (queued.isEmpty() || (queued.firstKey().compareTo(key) > 0 && dialers.size() < window)) {
                    dialers.add(key);
                    ended.put(key, Out.DIAL);
                    return;
                }
                queued.put(key, new M(now));
                joins.add(key);
            }
            settle(Set.of(key), Set.of(key));
        }

        void requeue(JobKey key, long delay, boolean refusal) {
            dialers.remove(key);
            M m = queued.get(key);
            if (m == null) {
                m = new M(0);
                queued.put(key, m);
                joins.add(key);
            }
            m.notBefore = now + delay;
            m.refusedWait = refusal;
            m.hurried = false;
            settle(Set.of(), Set.of());
        }

        void leave(JobKey key, boolean mayHaveDialed) {
            Set<JobKey> looking = new HashSet<>();
            if (queued.containsKey(key)) {
                if (!mayHaveDialed) {
                    dialers.remove(key);
                }
                remove(key, Out.RELEASED, looking);
            } else {
                dialers.remove(key);
            }
            settle(looking, Set.of());
        }

        void interrupt(JobKey key) {
            Set<JobKey> looking = new HashSet<>();
            if (queued.containsKey(key)) {
                remove(key, Out.INTERRUPTED, looking);
            } else {
                ended.put(key, Out.INTERRUPTED);
            }
            settle(looking, Set.of());
        }

        private void remove(JobKey key, Out how, Set<JobKey> looking) {
            M m = queued.remove(key);
            boolean dialed = dialers.remove(key);
            if (waiting.remove(key) != null || how == Out.INTERRUPTED) {
                ended.put(key, how);
            }
            if (m.hurried && !dialed) {
                hurry(looking);
            }
        }

        void slotFreed() {
            Set<JobKey> looking = new HashSet<>();
            hurry(looking);
            settle(looking, Set.of());
        }

        private void hurry(Set<JobKey> looking) {
            int pos = 0;
            for (var e : queued.entrySet()) {
                if (pos++ >= window) {
                    return;
                }
                M m = e.getValue();
                if (m.refusedWait && !dialers.contains(e.getKey()) && m.notBefore - now > 0) {
                    m.notBefore = now;
                    m.refusedWait = false;
                    m.hurried = true;
                    looking.add(e.getKey());
                    return;
                }
            }
        }

        /** Keys in a timed wait whose time has come, head first: the driver fires them one at a time. */
        List<JobKey> expired() {
            List<JobKey> out = new ArrayList<>();
            for (var e : queued.entrySet()) {
                if (waiting.get(e.getKey()) == St.TIMED && e.getValue().notBefore - now <= 0) {
                    out.add(e.getKey());
                }
            }
            return out;
        }

        void fire(JobKey key) {
            settle(Set.of(key), Set.of());
        }

        /**
         * Every waiting thread takes the state the rules give it; a thread in a timed wait keeps it until something
         * makes it look (its timer, slotFreed). {@code fresh} are threads that just called awaitTurn.
         */
        void settle(Set<JobKey> looking, Set<JobKey> fresh) {
            for (JobKey k : fresh) {
                waiting.put(k, St.PARKED); // placeholder, decided below
            }
            int pos = 0;
            for (var e : queued.entrySet()) {
                JobKey k = e.getKey();
                boolean inWindow = pos++ < window;
                St st = waiting.get(k);
                if (st == null) {
                    continue;
                }
                long nb = e.getValue().notBefore;
                if (st == St.TIMED && inWindow && !looking.contains(k)) {
                    continue;
                }
                if (inWindow && nb - now > 0) {
                    waiting.put(k, St.TIMED);
                } else if (inWindow && dialers.size() < window) {
                    waiting.remove(k);
                    dialers.add(k);
                    ended.put(k, Out.DIAL);
                } else {
                    waiting.put(k, St.PARKED);
                }
            }
        }
    }

    static final class Waiter {
        final Thread thread;
        final AtomicReference<Object> result = new AtomicReference<>();

        Waiter(LaunchQueue q, JobKey key, boolean selfInterrupt) {
            thread = Thread.ofVirtual().unstarted(() -> {
                if (selfInterrupt) {
                    Thread.currentThread().interrupt();
                }
                try {
                    q.awaitTurn(key);
                    result.set(Out.DIAL); // or RELEASED: told apart by the model
                } catch (InterruptedException e) {
                    result.set(Out.INTERRUPTED);
                } catch (Throwable t) {
                    result.set(t);
                }
            });
        }
    }

    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void randomSchedulesAgreeWithTheModelAtEveryStep() {
        long steps = 0;
        for (long s = FIRST_SEED; s < FIRST_SEED + SEEDS; s++) {
            steps += new Run(s).run();
        }
        assertTrue(steps >= SEEDS, "the runs took no steps");
    }

    static final class Run {
        final long seed;
        final Random rnd;
        final int workers;
        final Model model;
        final LaunchQueue q;
        final AtomicLong clock = new AtomicLong();
        final List<JobKey> joined = new CopyOnWriteArrayList<>();
        final Map<JobKey, Waiter> threads = new HashMap<>();
        final List<String> log = new ArrayList<>();
        final long base;
        final int segments;

        Run(long seed) {
            this.seed = seed;
            this.rnd = new Random(seed);
            this.workers = rnd.nextInt(4) == 0 ? 1 + rnd.nextInt(100) : 1 + rnd.nextInt(25);
            EngineConfig cfg = EngineConfig.builder().refusedDelay(Duration.ofNanos(REFUSED))
                    .failureDelay(Duration.ofNanos(FAILED)).build();
            this.q = new LaunchQueue(workers, cfg, joined::add, clock::get);
            int expectedWindow = Math.clamp(workers * 20 / 100, 2, 15);
            assertEquals(expectedWindow, q.windowSize(), "window of " + workers + " workers");
            this.model = new Model(q.windowSize());
            this.base = rnd.nextInt(3) == 0 ? Long.MAX_VALUE - 40 : 0;
            this.segments = model.window + 2 + rnd.nextInt(2 * model.window + 4);
        }

        JobKey randomKey() {
            return new JobKey(base + rnd.nextInt(segments), rnd.nextInt(3));
        }

        <T> T pick(List<T> list) {
            return list.get(rnd.nextInt(list.size()));
        }

        int run() {
            int n = 0;
            try {
                for (; n < STEPS; n++) {
                    step();
                }
            } finally {
                for (Waiter w : threads.values()) {
                    w.thread.interrupt();
                }
            }
            return n;
        }

        Set<JobKey> live() {
            Set<JobKey> s = new HashSet<>(model.queued.keySet());
            s.addAll(model.dialers);
            return s;
        }

        void step() {
            List<JobKey> dialing = new ArrayList<>(model.dialers);
            dialing.sort(null);
            List<JobKey> waitingKeys = new ArrayList<>(model.waiting.keySet());
            waitingKeys.sort(null);
            List<JobKey> idleQueued = new ArrayList<>();
            for (JobKey k : model.queued.keySet()) {
                if (!model.waiting.containsKey(k) && !model.dialers.contains(k)) {
                    idleQueued.add(k);
                }
            }
            long wakeBefore = q.stats().wakeUps();
            Map<JobKey, St> before = new HashMap<>(model.waiting);
            model.ended.clear();
            int r = rnd.nextInt(100);
            if (r < 30) {
                JobKey k = randomKey();
                if (live().contains(k)) {
                    return;
                }
                boolean selfInterrupt = rnd.nextInt(40) == 0;
                log.add((selfInterrupt ? "awaitInterrupted " : "await ") + k);
                if (selfInterrupt) {
                    model.interrupt(k);
                } else {
                    model.await(k);
                }
                start(k, selfInterrupt);
            } else if (r < 38 && !idleQueued.isEmpty()) {
                JobKey k = pick(idleQueued);
                log.add("await again " + k);
                model.await(k);
                start(k, false);
            } else if (r < 50 && !dialing.isEmpty()) {
                JobKey k = pick(dialing);
                log.add("refused " + k + " states " + model.waiting + " dialers " + model.dialers + " queued " + model.queued.keySet());
                model.requeue(k, REFUSED, true);
                q.refused(k);
            } else if (r < 55 && !dialing.isEmpty()) {
                JobKey k = pick(dialing);
                log.add("failed " + k);
                model.requeue(k, FAILED, false);
                q.failed(k);
            } else if (r < 65 && !dialing.isEmpty()) {
                JobKey k = pick(dialing);
                log.add("leave (admitted) " + k);
                model.leave(k, true);
                q.leave(k);
            } else if (r < 69 && !dialing.isEmpty()) {
                JobKey k = pick(dialing);
                log.add("leaveWithoutDialing " + k);
                model.leave(k, false);
                q.leaveWithoutDialing(k);
            } else if (r < 74 && !waitingKeys.isEmpty()) {
                JobKey k = pick(waitingKeys);
                log.add("withdraw (leave while waiting) " + k);
                model.leave(k, true);
                q.leave(k);
            } else if (r < 76 && !idleQueued.isEmpty()) {
                JobKey k = pick(idleQueued);
                log.add("withdraw idle " + k);
                model.leave(k, rnd.nextBoolean());
                q.leave(k);
            } else if (r < 80 && !waitingKeys.isEmpty()) {
                JobKey k = pick(waitingKeys);
                log.add("interrupt " + k);
                model.interrupt(k);
                threads.get(k).thread.interrupt();
            } else if (r < 90) {
                log.add("slotFreed");
                model.slotFreed();
                q.slotFreed();
            } else if (r < 93) {
                JobKey k = randomKey();
                if (live().contains(k)) {
                    return;
                }
                log.add("leave of an unknown key " + k);
                model.leave(k, true);
                q.leave(k);
            } else {
                long d = (1 + rnd.nextInt(4)) * U;
                log.add("advance " + d / U + "U");
                model.now += d;
                clock.addAndGet(d);
                check(before, wakeBefore, 0);
                for (JobKey k : model.expired()) {
                    if (model.waiting.get(k) != St.TIMED || model.queued.get(k).notBefore - model.now > 0) {
                        continue;
                    }
                    before = new HashMap<>(model.waiting);
                    wakeBefore = q.stats().wakeUps();
                    model.ended.clear();
                    log.add("  timer of " + k);
                    model.fire(k);
                    q.whileLocked(() -> q.turnOf(k).signal());
                    check(before, wakeBefore, 1);
                }
                return;
            }
            check(before, wakeBefore, 0);
        }

        void start(JobKey k, boolean selfInterrupt) {
            Waiter w = new Waiter(q, k, selfInterrupt);
            threads.put(k, w);
            w.thread.start();
        }

        String describe() {
            StringBuilder sb = new StringBuilder("seed " + seed + " workers " + workers + " window " + model.window
                    + " base " + base + "\n");
            int from = Math.max(0, log.size() - Integer.getInteger("qm.logLines", 25));
            for (int i = from; i < log.size(); i++) {
                sb.append("  ").append(i).append(": ").append(log.get(i)).append('\n');
            }
            sb.append("model queued ").append(model.queued.keySet()).append(" dialers ").append(model.dialers)
                    .append(" waiting ").append(model.waiting).append(" ended ").append(model.ended).append('\n');
            sb.append("real queued ").append(q.snapshot()).append(" stats ").append(q.stats()).append('\n');
            for (JobKey k : model.waiting.keySet()) {
                sb.append("  real wait of ").append(k).append(": ").append(q.waitState(k)).append('\n');
            }
            for (JobKey k : model.ended.keySet()) {
                Waiter w = threads.get(k);
                sb.append("  real end of ").append(k).append(": ").append(w == null ? "-" : w.result.get())
                        .append('\n');
            }
            for (var e : threads.entrySet()) {
                if (e.getValue().thread.isAlive()) {
                    sb.append("  thread of ").append(e.getKey()).append(" state ").append(e.getValue().thread.getState())
                            .append('\n');
                    for (StackTraceElement f : e.getValue().thread.getStackTrace()) {
                        sb.append("      ").append(f).append('\n');
                    }
                }
            }
            return sb.toString();
        }

        boolean settled() {
            for (var e : model.waiting.entrySet()) {
                Wait w = q.waitState(e.getKey());
                Wait want = e.getValue() == St.TIMED ? Wait.TIMED : Wait.PARKED;
                if (w != want) {
                    return false;
                }
            }
            for (var e : model.ended.entrySet()) {
                Waiter w = threads.get(e.getKey());
                if (w == null || w.thread.isAlive()) {
                    return false;
                }
            }
            return true;
        }

        void check(Map<JobKey, St> before, long wakeBefore, int timerSignals) {
            try {
                Awaitility.await().atMost(Duration.ofSeconds(5)).pollDelay(Duration.ZERO)
                        .pollInterval(Duration.ofMillis(1)).until(this::settled);
            } catch (ConditionTimeoutException e) {
                fail("never settled as the model says:\n" + describe());
            }
            Supplier<String> why = this::describe;
            for (var e : model.ended.entrySet()) {
                Waiter w = threads.remove(e.getKey());
                Object got = w.result.get();
                Object want = e.getValue() == Out.INTERRUPTED ? Out.INTERRUPTED : Out.DIAL;
                assertEquals(want, got, () -> "end of " + e.getKey() + "\n" + why.get());
            }
            assertEquals(List.copyOf(model.queued.keySet()), q.snapshot(), why);
            LaunchQueue.Stats st = q.stats();
            assertEquals(model.queued.size(), st.queued(), why);
            assertEquals(model.dialers.size(), st.dialing(), why);
            assertEquals(0, st.wakeUpsOutsideWindow(), why);
            assertEquals(model.joins, joined, why);
            for (var e : model.queued.entrySet()) {
                assertEquals(e.getValue().notBefore, q.notBeforeNanos(e.getKey()), () -> "not-before of "
                        + e.getKey() + "\n" + why.get());
            }
            // Exactly the threads that must move are woken: each waiting thread that changed state or ended
            // (not by its interrupt), and nobody else.
            long expectedWakes = 0;
            for (var e : before.entrySet()) {
                Out out = model.ended.get(e.getKey());
                if (out != null) {
                    if (out != Out.INTERRUPTED) {
                        expectedWakes++;
                    }
                } else if (model.waiting.get(e.getKey()) != e.getValue()) {
                    expectedWakes++;
                }
            }
            if (timerSignals > 0 && expectedWakes == 0) {
                expectedWakes = timerSignals;
            }
            long wakes = st.wakeUps() - wakeBefore;
            if (wakes < expectedWakes) {
                fail("fewer wake-ups than threads that moved: " + wakes + " < " + expectedWakes + "\n" + why.get());
            }
            // more wake-ups than movers is allowed: a woken thread that finds nothing to do parks again
        }
    }
}
