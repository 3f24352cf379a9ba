package dev.orderly.engine.internal;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.JobKey;
import dev.orderly.api.RequestPlan;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A seeded model of how the places of the engine-wide job cap are shared when a request's client re-runs its segment
 * (engine-rules.md, "Who gets a freed place"; the guide: a place given up for the client's re-run stays with the
 * request). {@link EngineJobCapModelTest} runs whole requests and checks the cap is never exceeded and nobody waits
 * while a place is free, but not who gets a freed place; this one drives the {@link Scheduler}s of 2-5 requests on one
 * {@link EngineJobCap} of 2-6 from the test thread, as their jobs and walkers would (jobs ending in random order,
 * missing outputs re-run, jobs withdrawn for a re-run and reporting their withdrawal later), each request's owner on a
 * thread of its own, and watches every call each scheduler makes to its permits.
 *
 * <p>Checked, at the call, so no sampling can miss it:
 * <ul>
 *   <li>a place kept in a request ({@link JobPermits#keep}) instead of going to the fair-share queue is kept for the
 *       client's re-run only: at most one per re-run ({@code rerun} to the next {@code rerun}), none before the first;
 *   <li>the owner's next launch on a kept place is the re-run itself (the client's segment, its last stage), never
 *       another unit of the request while requests with fewer jobs may be waiting.
 * </ul>
 * Now and then a request ends early (cancelled, or a job of it throws) and its jobs report their ends after. Plus, once
 * every request ended: the cap holds nothing. {@code -Dcm.seeds=N} runs more seeds, {@code -Dcm.firstSeed=S}
 * starts elsewhere (as {@link EngineJobCapModelTest}).
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class EngineJobCapReRunPlacesModelTest {

    private static final int SEEDS = Integer.getInteger("cm.seeds", 120);
    private static final long FIRST_SEED = Long.getLong("cm.firstSeed", 1);
    private static final int STEPS = 400;
    private static final int MAX_RERUNS_PER_SEGMENT = 3;

    private static final AtomicInteger KEEPS = new AtomicInteger();
    private static final AtomicInteger LAUNCHES_ON_A_KEPT_PLACE = new AtomicInteger();
    private static final AtomicInteger WITHDRAWALS = new AtomicInteger();
    private static final AtomicInteger STOPPED_EARLY = new AtomicInteger();

    @Test
    void aPlaceKeptInARequestIsKeptOnlyForItsReRunAndLaunchesIt() throws Exception {
        List<String> problems = new ArrayList<>();
        long start = System.nanoTime();
        for (long seed = FIRST_SEED; seed < FIRST_SEED + SEEDS && problems.size() <= 20; seed++) {
            try {
                runSeed(seed, problems);
            } catch (AssertionError | Exception e) {
                problems.add("seed " + seed + ": " + e);
            }
        }
        System.out.printf("EngineJobCapReRunPlacesModelTest: %d seeds from %d in %d ms: %d places kept, %d launches on"
                + " a kept place, %d withdrawals, %d requests ended early%n", SEEDS, FIRST_SEED,
                (System.nanoTime() - start) / 1_000_000, KEEPS.get(), LAUNCHES_ON_A_KEPT_PLACE.get(), WITHDRAWALS.get(),
                STOPPED_EARLY.get());
        assertTrue(problems.isEmpty() && KEEPS.get() > 0 && LAUNCHES_ON_A_KEPT_PLACE.get() > 0,
                problems.size() + " problem(s):\n" + String.join("\n", problems));
    }

    /** One request as the model drives it: its scheduler, its owner, its jobs and its walker's state. */
    private static final class Req {
        final String id;
        final RequestPlan plan;
        final Watched permits;
        final Scheduler scheduler;
        final ConcurrentLinkedQueue<Launch> launched = new ConcurrentLinkedQueue<>();
        // Jobs handed out and not yet reported; the withdrawn ones report jobWithdrawn, the others jobEnded.
        final List<Launch> alive = new ArrayList<>();
        final List<Launch> withdrawn = new ArrayList<>();
        long client;
        int reruns;
        // The re-run waits for a worker that no job could give up when asked (all on a tier2): the first job to come
        // off its tier2 gives its up (RunningJobs.giveUpForTheRerun), until the re-run's job starts.
        JobKey rerunWaitsForAWorker;
        Thread owner;

        Req(String id, RequestPlan plan, long lookahead, EngineJobCap cap, List<String> wrong) {
            this.id = id;
            this.plan = plan;
            this.permits = new Watched(id, cap.join(id), wrong);
            this.scheduler = new Scheduler(plan, lookahead, false, permits);
        }
    }

    /**
     * A request's permits, each call passed on to the cap; records what the invariants need. keep, take and withdraw
     * are called under the scheduler's lock (the owner's take with the unit it picks in the same hold), so what is
     * recorded here is in the scheduler's order.
     */
    private static final class Watched implements JobPermits {
        private final String id;
        private final JobPermits permits;
        private final List<String> wrong;
        // Set by the test thread just before each rerun, under no lock; read under the scheduler's lock after.
        volatile JobKey rerunUnit;
        volatile int keepsSinceRerun;
        // A place was kept and the owner has not launched on it yet (nor given it on).
        volatile boolean keptPending;
        // The owner's take that just succeeded was on a kept place: its launch must be the re-run.
        volatile boolean launchOnKept;
        volatile Thread owner;
        // The model stops the request: a withdrawal reported after the stop is kept and handed straight on (closed).
        volatile boolean stopping;

        Watched(String id, JobPermits permits, List<String> wrong) {
            this.id = id;
            this.permits = permits;
            this.wrong = wrong;
        }

        @Override
        public boolean take() {
            boolean taken = permits.take();
            if (taken && Thread.currentThread() == owner && keptPending) {
                keptPending = false;
                launchOnKept = true;
            }
            return taken;
        }

        @Override
        public void awaitPermit() throws InterruptedException {
            permits.awaitPermit();
        }

        @Override
        public void withdraw() {
            keptPending = false;
            permits.withdraw();
        }

        @Override
        public void release(boolean wantsAnother) {
            permits.release(wantsAnother);
        }

        @Override
        public void keep() {
            if (stopping) {
                permits.keep();
                return;
            }
            KEEPS.incrementAndGet();
            int keeps = ++keepsSinceRerun;
            if (rerunUnit == null) {
                wrong.add(id + " kept a place with no re-run of its client's segment ever asked for");
            } else if (keeps > 1) {
                wrong.add(id + " kept a place " + keeps + " times for one re-run of " + rerunUnit + " (the rest should"
                        + " go to the fair-share queue)");
            }
            keptPending = true;
            permits.keep();
        }

        @Override
        public boolean wouldWait() {
            return permits.wouldWait();
        }

        @Override
        public void close() {
            keptPending = false;
            permits.close();
        }
    }

    private void runSeed(long seed, List<String> problems) throws Exception {
        SplittableRandom random = new SplittableRandom(seed);
        int limit = random.nextInt(2, 7);
        int requests = random.nextInt(2, 6);
        EngineJobCap cap = new EngineJobCap(limit);
        List<String> wrong = new CopyOnWriteArrayList<>();
        List<Req> reqs = new ArrayList<>();
        for (int i = 0; i < requests; i++) {
            int workers = random.nextInt(1, 6);
            RequestPlan plan = new RequestPlan(0, random.nextInt(2, 16), random.nextInt(1, 4), workers);
            Req req = new Req("s" + seed + "-r" + i, plan, random.nextInt(1, 3 * workers + 1), cap, wrong);
            reqs.add(req);
        }
        for (Req req : reqs) {
            req.owner = Thread.ofPlatform().daemon().name(req.id + "-owner").unstarted(() -> {
                try {
                    Launch launch;
                    while ((launch = req.scheduler.awaitNextJob()) != null) {
                        if (req.permits.launchOnKept) {
                            req.permits.launchOnKept = false;
                            LAUNCHES_ON_A_KEPT_PLACE.incrementAndGet();
                            if (!launch.key().equals(req.permits.rerunUnit)) {
                                wrong.add(req.id + " launched " + launch.key() + " on the place it kept for the re-run"
                                        + " of " + req.permits.rerunUnit + "; the cap reads " + cap.shares());
                            }
                        }
                        req.launched.add(launch);
                    }
                } catch (InterruptedException e) {
                    // the model's end
                } catch (Throwable t) {
                    wrong.add(req.id + "'s owner threw " + t);
                }
            });
            req.permits.owner = req.owner;
        }
        reqs.forEach(req -> req.owner.start());
        try {
            for (int step = 0; step < STEPS && wrong.isEmpty(); step++) {
                settle(reqs);
                List<Runnable> moves = new ArrayList<>();
                for (Req req : reqs) {
                    for (Launch launch; (launch = req.launched.poll()) != null; ) {
                        req.alive.add(launch);
                        if (launch.key().equals(req.rerunWaitsForAWorker)) {
                            req.rerunWaitsForAWorker = null;
                        }
                    }
                    for (Launch job : req.alive) {
                        moves.add(() -> end(req, job));
                        if (req.rerunWaitsForAWorker != null && !job.key().equals(req.rerunWaitsForAWorker)) {
                            moves.add(() -> {
                                req.rerunWaitsForAWorker = null;
                                withdraw(req, job);
                            });
                        }
                    }
                    for (Launch job : req.withdrawn) {
                        moves.add(() -> reportWithdrawal(req, job));
                    }
                    if (!req.permits.stopping && req.scheduler.waitingFor(false).contains(" ready, ")) {
                        moves.add(() -> walk(req, random));
                    }
                }
                if (moves.isEmpty()) {
                    if (reqs.stream().allMatch(req -> !req.owner.isAlive())) {
                        break;
                    }
                    // Nothing to do until an owner launches: bounded, a stall here is a finding.
                    try {
                        await().pollInSameThread().pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(1))
                                .atMost(Duration.ofSeconds(10)).until(() -> reqs.stream().anyMatch(
                                        req -> !req.launched.isEmpty()) || reqs.stream().noneMatch(
                                        req -> req.owner.isAlive()));
                    } catch (org.awaitility.core.ConditionTimeoutException e) {
                        problems.add("seed " + seed + ": nothing alive, nothing launched for 10 s; the cap reads "
                                + cap + " " + cap.shares() + "; " + reqs.stream().map(req -> req.id + " "
                                + req.scheduler + " " + req.scheduler.waitingFor(false)).toList());
                        return;
                    }
                    continue;
                }
                if (random.nextInt(150) == 0) {
                    // Now and then a request ends early (cancelled, or a job throws): its jobs end as it stops.
                    Req req = reqs.get(random.nextInt(reqs.size()));
                    if (!req.permits.stopping) {
                        req.permits.stopping = true;
                        STOPPED_EARLY.incrementAndGet();
                        if (!req.alive.isEmpty() && random.nextBoolean()) {
                            req.alive.remove(req.alive.get(random.nextInt(req.alive.size())));
                            req.scheduler.jobFailed();
                        }
                        req.scheduler.stop();
                        continue;
                    }
                }
                moves.get(random.nextInt(moves.size())).run();
            }
        } finally {
            // Every request stops; its jobs report their ends as a stopped request's do.
            for (Req req : reqs) {
                req.permits.stopping = true;
                req.scheduler.stop();
            }
            for (Req req : reqs) {
                req.owner.join(Duration.ofSeconds(5));
                if (req.owner.isAlive()) {
                    wrong.add(req.id + "'s owner still waits 5 s after the stop");
                    req.owner.interrupt();
                }
                for (Launch launch; (launch = req.launched.poll()) != null; ) {
                    req.alive.add(launch);
                }
                for (Launch job : List.copyOf(req.alive)) {
                    req.scheduler.jobEnded(job.key(), false, dialedOnce(job, false));
                }
                for (Launch job : List.copyOf(req.withdrawn)) {
                    req.scheduler.jobWithdrawn(job.key(), dialedOnce(job, false));
                }
            }
        }
        Map<String, JobShares.Share> left = cap.shares();
        if (cap.alive() != 0 || !left.isEmpty()) {
            wrong.add("seed " + seed + ": after every request ended the cap reads " + cap + " " + left);
        }
        for (String w : wrong) {
            problems.add("seed " + seed + " (cap " + limit + "): " + w);
        }
    }

    /** A job ends: well if its unit is still needed (a job retries until it is done), else abandoned. */
    private static void end(Req req, Launch job) {
        req.alive.remove(job);
        boolean needed = req.scheduler.isNeeded(job.key());
        req.scheduler.jobEnded(job.key(), needed, dialedOnce(job, needed));
    }

    /** A job withdrawn for the client's re-run reports it when it next stops (its dial ends first). */
    private static void reportWithdrawal(Req req, Launch job) {
        req.withdrawn.remove(job);
        req.scheduler.jobWithdrawn(job.key(), dialedOnce(job, false));
    }

    /**
     * The walker, with the client's segment ready: it delivers it, or (now and then) finds its output missing and
     * re-runs it; with no place to be had, the highest job that is not on a tier2 gives its place up (here: a random
     * job other than the re-run's), or, when every job is on a tier2, the first to come off one.
     */
    private static void walk(Req req, SplittableRandom random) {
        long segment = req.client;
        if (req.reruns < MAX_RERUNS_PER_SEGMENT && random.nextInt(100) < 35) {
            req.reruns++;
            JobKey unit = new JobKey(segment, req.plan.lastStage());
            req.permits.rerunUnit = unit;
            req.permits.keepsSinceRerun = 0;
            if (req.scheduler.rerun(segment)) {
                List<Launch> candidates = req.alive.stream().filter(job -> !job.key().equals(unit)).toList();
                boolean withdrew = !candidates.isEmpty() && random.nextInt(4) != 0;
                if (withdrew) {
                    withdraw(req, candidates.get(random.nextInt(candidates.size())));
                }
                // None could be withdrawn, or (rarely: its second look) one was and the first job off a tier2 gives
                // its worker up too (RunningJobs.withdrawHighestWaiting).
                req.rerunWaitsForAWorker = !withdrew || random.nextInt(8) == 0 ? unit : null;
            }
        } else {
            req.scheduler.delivered(segment);
            req.client++;
            req.reruns = 0;
        }
    }

    private static void withdraw(Req req, Launch job) {
        req.alive.remove(job);
        req.withdrawn.add(job);
        WITHDRAWALS.incrementAndGet();
    }

    private static UnitCounts dialedOnce(Launch job, boolean succeeded) {
        UnitCounts prior = job.prior();
        return new UnitCounts(prior.dials() + 1, prior.failures(), prior.timeouts(),
                prior.successes() + (succeeded ? 1 : 0));
    }

    /**
     * Lets the owners act on the last move before the next one (more moves to pick from): bounded, and only for
     * coverage; nothing checked depends on it.
     */
    private static void settle(List<Req> reqs) {
        try {
            await().pollInSameThread().pollDelay(Duration.ZERO).pollInterval(Duration.ofNanos(200_000))
                    .atMost(Duration.ofMillis(200)).until(() -> reqs.stream().allMatch(req -> {
                        Thread.State state = req.owner.getState();
                        return state == Thread.State.WAITING || state == Thread.State.TERMINATED;
                    }));
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            // an owner still busy: the next move comes anyway
        }
    }
}
