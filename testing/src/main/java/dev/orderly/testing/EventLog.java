package dev.orderly.testing;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The events of a fake tier2 or fleet, in the order they happened, for a test to check after (or, with Awaitility,
 * during) a request.
 *
 * <p>Invariants: {@code events} is append-only, and the event at index {@code i} has sequence {@code i}; both are
 * guarded by {@code lock}, so the sequence order is the order in which the events were recorded. Every query returns
 * a copy. A query refuses a null key or type ({@link NullPointerException} naming it): it would match nothing. This
 * class is thread-safe.
 */
public final class EventLog {

    private final ReentrantLock lock = new ReentrantLock();
    // guarded by lock
    private final List<Tier2Event> events = new ArrayList<>();

    /** An empty log. */
    public EventLog() {
    }

    /** Records an event and returns it. */
    Tier2Event record(Tier2Event.Type type, Job job, int instance) {
        lock.lock();
        try {
            Tier2Event event = new Tier2Event(events.size(), type, job, instance);
            events.add(event);
            return event;
        } finally {
            lock.unlock();
        }
    }

    /** Every event so far, in order. */
    public List<Tier2Event> events() {
        lock.lock();
        try {
            return List.copyOf(events);
        } finally {
            lock.unlock();
        }
    }

    /** The events of one unit so far, in order. */
    public List<Tier2Event> eventsOf(JobKey key) {
        Objects.requireNonNull(key, "key");
        return events().stream().filter(e -> e.key().equals(key)).toList();
    }

    /** The types of one unit's events so far, in order: what a test usually asserts. */
    public List<Tier2Event.Type> typesOf(JobKey key) {
        return eventsOf(key).stream().map(Tier2Event::type).toList();
    }

    /** The jobs dialed so far, one per dial, in order. */
    public List<Job> dials() {
        return events().stream().filter(e -> e.type() == Tier2Event.Type.DIALED).map(Tier2Event::job).toList();
    }

    /** How many times {@code key} was dialed so far. */
    public long dialsOf(JobKey key) {
        return count(Tier2Event.Type.DIALED, key);
    }

    /** How many events of {@code type} so far. */
    public long count(Tier2Event.Type type) {
        Objects.requireNonNull(type, "type");
        return events().stream().filter(e -> e.type() == type).count();
    }

    /** How many events of {@code type} for {@code key} so far. */
    public long count(Tier2Event.Type type, JobKey key) {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(key, "key");
        return events().stream().filter(e -> e.type() == type && e.key().equals(key)).count();
    }

    /** The units in the order they were first admitted: the launch order the tier2 saw. */
    public List<JobKey> admissionOrder() {
        return events().stream().filter(e -> e.type() == Tier2Event.Type.ADMITTED).map(Tier2Event::key)
                .distinct().toList();
    }

    @Override
    public String toString() {
        return "EventLog" + events();
    }
}
