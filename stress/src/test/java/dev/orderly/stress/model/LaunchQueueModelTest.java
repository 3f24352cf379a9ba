package dev.orderly.stress.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.JobKey;
import dev.orderly.engine.LaunchQueue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Random, reproducible schedules of join / refused / failed / leave / interrupt, each run on a real
 * {@link LaunchQueue} with one virtual thread per {@code awaitTurn} call, and checked after every step against
 * {@link QueueModel}, a sequential model of the launch queue's rules.
 *
 * <p>How real threads are driven deterministically: the controller (the test thread) applies one operation at a
 * time — {@code awaitTurn} on a new virtual thread, everything else itself — and then waits until the queue has
 * settled: every call the model says has returned or thrown has ended that way, every call the model says still waits
 * is parked on its job's {@link Condition} (not merely running, or queueing for the lock), and {@code snapshot()} and
 * {@code dialingCount()} equal the model's. Only then is the next operation applied. Refused jobs may dial again at
 * once and failed jobs not for an hour, so no timer decides anything: a queue that honours the rules settles to
 * exactly the model's state after every step, and any other state — a wrong order, a job dialing outside the window
 * or beyond the dial slots, a lost wake-up, an entry left behind by an interrupt — never settles and is reported
 * with its seed and the schedule up to that step.
 */
class LaunchQueueModelTest {

    /**
     * 1,000 by default. To explore further: {@code -Dorderly.model.schedules=20000
     * -Djunit.jupiter.execution.timeout.mode=disabled} (and {@code -Dorderly.model.firstSeed=S} for other seeds).
     */
    private static final int SCHEDULES = Integer.getInteger("orderly.model.schedules", 1_000);
    private static final long FIRST_SEED = Long.getLong("orderly.model.firstSeed", 20_261_129L);
    /** Settling takes microseconds; this bounds only a divergence, which never settles. */
    private static final Duration SETTLE = Duration.ofSeconds(5);

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void everyRandomScheduleKeepsOrderWindowAndDialSlotsOfTheModel() {
        long started = System.nanoTime();
        int operations = 0;
        for (int i = 0; i < SCHEDULES; i++) {
            operations += new Schedule(FIRST_SEED + i).run();
        }
        System.out.printf("launch queue model: %d schedules, %d operations, all as the model, in %d ms%n",
                SCHEDULES, operations, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
    }

    /** One schedule: its seed decides the window, the jobs and every operation. */
    private static final class Schedule {
        private final long seed;
        private final Random random;
        private final int window;
        private final List<JobKey> keys = new ArrayList<>();
        private final LaunchQueue queue;
        private final QueueModel model;
        private final List<Op> steps = new ArrayList<>();
        private final List<Call> calls = new ArrayList<>();

        Schedule(long seed) {
            this.seed = seed;
            this.random = new Random(seed);
            this.window = 1 + random.nextInt(3);
            int segments = 2 + random.nextInt(4);
            for (int segment = 0; segment < segments; segment++) {
                for (int stage = 0; stage < 2; stage++) {
                    keys.add(new JobKey(segment, stage));
                }
            }
            EngineConfig config = EngineConfig.builder()
                    .launchWindowPercent(1)
                    .launchWindowMin(window)
                    .launchWindowMax(window)
                    .refusedDelay(Duration.ZERO)
                    .failureDelay(Duration.ofHours(1))
                    .build();
            this.queue = new LaunchQueue(1, config);
            this.model = new QueueModel(window);
        }

        /** Runs the schedule; returns its number of operations. */
        int run() {
            int length = 12 + random.nextInt(14);
            try {
                for (int i = 0; i < length; i++) {
                    Op op = next();
                    steps.add(op);
                    apply(op);
                    awaitSettled();
                }
                if (queue.wakeUpsOutsideWindow() != 0) {
                    diverged("a waiting job was woken outside the window " + queue.wakeUpsOutsideWindow()
                            + " time(s) (a wasted wake-up: the herd the design rules out)", null);
                }
                return length;
            } finally {
                for (Call call : calls) {
                    call.thread.interrupt();
                }
                for (Call call : calls) {
                    try {
                        if (!call.thread.join(SETTLE)) {
                            fail(header() + "call " + call + " did not end after an interrupt");
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        fail("interrupted while cleaning up seed " + seed);
                    }
                }
            }
        }

        private Op next() {
            JobKey key = keys.get(random.nextInt(keys.size()));
            List<Op.Kind> allowed = List.copyOf(QueueModel.allowed(model.state(key)));
            // Favour awaitTurn: waiting jobs are where wake-ups can be lost.
            if (allowed.contains(Op.Kind.TURN) && random.nextInt(3) == 0) {
                return new Op(Op.Kind.TURN, key);
            }
            return new Op(allowed.get(random.nextInt(allowed.size())), key);
        }

        private void apply(Op op) {
            switch (op.kind()) {
                case TURN -> {
                    int index = model.turn(op.key());
                    assertEquals(calls.size(), index, "model and test number calls alike");
                    calls.add(Call.start(queue, op.key(), index));
                }
                case REFUSED -> {
                    model.refused(op.key());
                    queue.refused(op.key());
                }
                case FAILED -> {
                    model.failed(op.key());
                    queue.failed(op.key());
                }
                case LEAVE -> {
                    model.leave(op.key());
                    queue.leave(op.key());
                }
                case INTERRUPT -> {
                    Call call = calls.get(model.waiter(op.key()));
                    model.interrupt(op.key());
                    call.thread.interrupt();
                }
            }
        }

        private void awaitSettled() {
            Observed expected = new Observed(model.order(), model.dialing(), model.calls());
            try {
                Awaitility.await()
                        .atMost(SETTLE)
                        .pollInSameThread()
                        .pollDelay(Duration.ZERO)
                        .pollInterval(Duration.ofMillis(1))
                        .until(() -> expected.equals(observe()) && expected.equals(observe()));
            } catch (ConditionTimeoutException e) {
                diverged("the queue did not settle to the model's state", expected);
            }
        }

        private Observed observe() {
            List<QueueModel.Call> states = new ArrayList<>();
            for (Call call : calls) {
                states.add(call.state());
            }
            return new Observed(queue.snapshot(), queue.stats().dialing(), states);
        }

        private void diverged(String what, Observed expected) {
            String message = header() + what + "\n"
                    + "  schedule: " + numbered(steps) + "\n"
                    + "  model:    " + model + "\n"
                    + (expected == null ? "" : "  expected: " + expected + "\n")
                    + "  actual:   " + observe() + "\n"
                    + "  calls:    " + calls;
            System.out.println(message);
            fail(message);
        }

        private String header() {
            return "DIVERGENCE seed=" + seed + " window=" + window + " step=" + steps.size() + ": ";
        }

        private static String numbered(List<Op> steps) {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < steps.size(); i++) {
                sb.append(i == 0 ? "" : ", ").append(i + 1).append(':').append(steps.get(i));
            }
            return sb.toString();
        }
    }

    /** The part of the queue's state the model predicts. */
    private record Observed(List<JobKey> order, int dialing, List<QueueModel.Call> calls) {
        @Override
        public String toString() {
            StringBuilder sb = new StringBuilder("[");
            for (JobKey key : order) {
                sb.append(sb.length() > 1 ? ", " : "").append(key.segment()).append('/').append(key.stage());
            }
            return sb.append("] dialing=").append(dialing).append(" calls=").append(calls).toString();
        }
    }

    /** One {@code awaitTurn} call on its own virtual thread. */
    private static final class Call {
        private final JobKey key;
        private final int index;
        private final Thread thread;
        private volatile QueueModel.Call ended; // RETURNED or INTERRUPTED once the call has ended
        private volatile Throwable threw;

        private Call(LaunchQueue queue, JobKey key, int index) {
            this.key = key;
            this.index = index;
            this.thread = Thread.ofVirtual().name("job-" + key.segment() + "/" + key.stage() + "#" + index)
                    .unstarted(() -> {
                        try {
                            queue.awaitTurn(key);
                            ended = QueueModel.Call.RETURNED;
                        } catch (InterruptedException e) {
                            ended = QueueModel.Call.INTERRUPTED;
                        } catch (Throwable t) {
                            threw = t;
                        }
                    });
        }

        static Call start(LaunchQueue queue, JobKey key, int index) {
            Call call = new Call(queue, key, index);
            call.thread.start();
            return call;
        }

        /** BLOCKED only when parked on a Condition: a thread that is running, or queueing for the lock, is not yet. */
        QueueModel.Call state() {
            if (threw != null) {
                return null;
            }
            QueueModel.Call end = ended;
            if (end != null) {
                return end;
            }
            Thread.State s = thread.getState();
            boolean parked = (s == Thread.State.WAITING || s == Thread.State.TIMED_WAITING)
                    && LockSupport.getBlocker(thread) instanceof Condition;
            return parked ? QueueModel.Call.BLOCKED : null;
        }

        @Override
        public String toString() {
            return "#" + index + " " + key.segment() + "/" + key.stage() + "="
                    + (threw != null ? "threw " + threw : state() == null ? "running" : state());
        }
    }
}
