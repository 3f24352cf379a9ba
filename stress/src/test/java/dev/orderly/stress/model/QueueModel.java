package dev.orderly.stress.model;

import dev.orderly.api.JobKey;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A sequential, single-threaded model of the launch queue's rules, against which the real
 * {@link dev.orderly.engine.LaunchQueue} is checked one operation at a time.
 *
 * <p>It is written from the rules, not from the implementation: queued jobs in launch order; the window is the
 * first {@code window} of them; a job holds a dial slot from the return of {@code awaitTurn} until it reports back
 * ({@code refused}, {@code failed} or {@code leave}), whether it was queued or not. A queued job may dial only inside
 * the window, once its not-before time has passed, and while fewer than {@code window} jobs hold a dial slot; when
 * several may, the one closest to the head goes first. A job that is not queued passes without joining when nothing is
 * queued (no bound at all), or when it sorts ahead of everything queued and a dial slot is free; otherwise it joins at
 * its place. Refused jobs may dial again at once (refusedDelay 0); failed jobs never within a schedule (failureDelay
 * one hour), so there are no timers in the model: every outcome follows from the order of operations alone.
 *
 * <p>The engine keeps the same rules, with no threads either, in its package-private {@code LaunchBook} (the book
 * under the {@code LaunchQueue} monitor); {@code LaunchBookTest} in the engine's tests checks them one rule at a time.
 * The two are meant to be read side by side: {@link #turn} is the book's {@code passes} and {@code turn},
 * {@link #refused} and {@link #failed} its {@code requeue}, {@link #leave} its {@code leave}, {@link #interrupt} its
 * {@code remove}, and {@code admit} the book's {@code wakeEligible} together with the woken threads' next turn.
 * Change a rule in one, change it in the other.
 */
final class QueueModel {

    /** What one {@code awaitTurn} call is doing. */
    enum Call { BLOCKED, RETURNED, INTERRUPTED }

    /** What a job is, from the queue's point of view; decides which operations a schedule may apply next. */
    enum JobState { NOT_QUEUED, QUEUED, WAITING, DIALING }

    private static final class Entry {
        boolean ready;
        int waiter = -1; // index of the awaitTurn call waiting for this entry's turn, or -1
    }

    private final int window;
    private final TreeMap<JobKey, Entry> queued = new TreeMap<>();
    private final List<Call> calls = new ArrayList<>();
    private final Map<JobKey, Integer> waiterOf = new HashMap<>();
    private final Set<JobKey> dialers = new HashSet<>(); // every job holding a dial slot, queued or not

    QueueModel(int window) {
        this.window = window;
    }

    /** {@code awaitTurn(key)} on a new thread; returns the index of the call. */
    int turn(JobKey key) {
        int call = calls.size();
        calls.add(Call.BLOCKED);
        Entry entry = queued.get(key);
        if (entry == null) {
            if (queued.isEmpty() || (queued.firstKey().compareTo(key) > 0 && dialers.size() < window)) {
                calls.set(call, Call.RETURNED); // no queue, no wait: it does not join, but it holds a dial slot
                dialers.add(key);
                return call;
            }
            entry = new Entry();
            entry.ready = true;
            queued.put(key, entry);
        }
        entry.waiter = call;
        waiterOf.put(key, call);
        admit();
        return call;
    }

    /** {@code refused(key)}: keeps or takes a place, may dial again at once, gives back its dial slot. */
    void refused(JobKey key) {
        requeue(key, true);
    }

    /** {@code failed(key)}: keeps or takes a place, may not dial again within the schedule, gives back its slot. */
    void failed(JobKey key) {
        requeue(key, false);
    }

    private void requeue(JobKey key, boolean ready) {
        Entry entry = queued.computeIfAbsent(key, k -> new Entry());
        entry.ready = ready;
        dialers.remove(key);
        admit();
    }

    /** {@code leave(key)}: gone, idempotent; a call waiting for its turn returns. */
    void leave(JobKey key) {
        Entry entry = queued.remove(key);
        dialers.remove(key);
        if (entry != null) {
            if (entry.waiter >= 0) {
                calls.set(entry.waiter, Call.RETURNED);
                waiterOf.remove(key);
            }
        }
        admit();
    }

    /** The thread waiting in {@code awaitTurn(key)} is interrupted: it throws and the job is no longer queued. */
    void interrupt(JobKey key) {
        Entry entry = queued.remove(key);
        calls.set(entry.waiter, Call.INTERRUPTED);
        waiterOf.remove(key);
        admit();
    }

    /** Lets the waiting jobs that may now dial do so, head first, while dial slots are free. */
    private void admit() {
        int position = 0;
        for (Map.Entry<JobKey, Entry> e : queued.entrySet()) {
            if (position++ >= window || dialers.size() >= window) {
                return;
            }
            Entry entry = e.getValue();
            if (entry.waiter >= 0 && entry.ready) {
                calls.set(entry.waiter, Call.RETURNED);
                waiterOf.remove(e.getKey());
                entry.waiter = -1;
                dialers.add(e.getKey());
            }
        }
    }

    JobState state(JobKey key) {
        Entry entry = queued.get(key);
        if (dialers.contains(key)) {
            return JobState.DIALING;
        }
        if (entry == null) {
            return JobState.NOT_QUEUED;
        }
        return entry.waiter >= 0 ? JobState.WAITING : JobState.QUEUED;
    }

    /** The operations a job in this state may see next (what a job, or the request cancelling it, can do). */
    static Set<Op.Kind> allowed(JobState state) {
        return switch (state) {
            case NOT_QUEUED, QUEUED -> EnumSet.of(Op.Kind.TURN, Op.Kind.REFUSED, Op.Kind.FAILED, Op.Kind.LEAVE);
            case WAITING -> EnumSet.of(Op.Kind.LEAVE, Op.Kind.INTERRUPT);
            case DIALING -> EnumSet.of(Op.Kind.REFUSED, Op.Kind.FAILED, Op.Kind.LEAVE);
        };
    }

    /** The queued keys in launch order. */
    List<JobKey> order() {
        return List.copyOf(queued.keySet());
    }

    int dialing() {
        return dialers.size();
    }

    /** What every {@code awaitTurn} call of the schedule, by index, should be doing now. */
    List<Call> calls() {
        return List.copyOf(calls);
    }

    /** The index of the call waiting in {@code awaitTurn(key)}. */
    int waiter(JobKey key) {
        return waiterOf.get(key);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("[");
        queued.forEach((key, e) -> sb.append(sb.length() > 1 ? ", " : "").append(key.segment()).append('/')
                .append(key.stage()).append(dialers.contains(key) ? " dialing" : e.waiter >= 0 ? " waiting" : " queued")
                .append(e.ready ? "" : " (failed)"));
        return sb.append("] dialing=").append(dialers).toString();
    }
}
