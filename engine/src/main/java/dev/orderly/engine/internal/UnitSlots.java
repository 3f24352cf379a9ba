package dev.orderly.engine.internal;

import dev.orderly.api.JobKey;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A concurrent map from unit to value for the running jobs of one request, at the cost of an array slot per put and
 * remove: the units with jobs alive at once sit in the look-ahead window, so unit {@code (segment, stage)} gets slot
 * {@code (segment mod R) * S + stage}, where R, a power of two, covers the window and S is the stages that get slots.
 * Two units of the window never share a slot. A unit whose slot is held by another one (a job still alive after its
 * segment was delivered and R segments later reached its slot again: a covered lower stage not yet ended, a job
 * blocked in {@code await}), or whose stage is past S, goes to an overflow map instead. A request with one stage and
 * 100 workers has 256 slots; the slots are bounded by {@link #MAX_SLOTS} whatever the plan, and what they can not hold
 * is kept in the overflow map, which only costs more.
 *
 * <p>Thread-safe, as a {@link ConcurrentHashMap} is, with its weak consistency for {@link #forEach}: a value is in
 * its slot or in the overflow map from its put to its remove, and never moves. Callers keep one value per unit at a
 * time (one live job per unit); {@link #putIfAbsent} reports a second one for a unit whose value is present, as a
 * check of that rule, not as a lock. The overflow map is made by the first unit that needs it (compare-and-set, so
 * every thread sees the same one) and never replaced; until then it reads as empty, and a request whose units all
 * find their slots makes none.
 *
 * @param <V> the values; each names its unit through {@code keyOf}
 */
final class UnitSlots<V> {

    /** The most slots one request's map keeps (256 KiB of references with compressed pointers). */
    static final int MAX_SLOTS = 1 << 16;

    /** The most stages of a segment that get slots; higher stages go to the overflow map. */
    static final int MAX_SLOT_STAGES = 64;

    private static final VarHandle OVERFLOW;

    static {
        try {
            OVERFLOW = MethodHandles.lookup().findVarHandle(UnitSlots.class, "overflow", Map.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final AtomicReferenceArray<V> slots;
    // null until a unit first goes to the overflow (OVERFLOW, compare-and-set); never replaced after that
    private volatile Map<JobKey, V> overflow;
    private final Function<V, JobKey> keyOf;
    private final int slotStages;
    private final long segmentMask;

    /**
     * @param window how many consecutive segments have units alive at once, {@code >= 1} (the look-ahead)
     * @param stages the stages of the plan, {@code >= 1}
     * @param keyOf the unit of a value
     */
    UnitSlots(long window, int stages, Function<V, JobKey> keyOf) {
        if (window < 1) {
            throw new IllegalArgumentException("window must be at least 1 segment, was " + window);
        }
        if (stages < 1) {
            throw new IllegalArgumentException("stages must be at least 1, was " + stages);
        }
        this.keyOf = keyOf;
        this.slotStages = Math.min(stages, MAX_SLOT_STAGES);
        long segments = Math.min(window, MAX_SLOTS / slotStages);
        // The smallest power of two that covers the window (as far as the bound allows).
        long ring = Long.highestOneBit(segments) == segments ? segments : Long.highestOneBit(segments) << 1;
        if (ring * slotStages > MAX_SLOTS) {
            ring >>= 1;
        }
        this.segmentMask = ring - 1;
        this.slots = new AtomicReferenceArray<>((int) (ring * slotStages));
    }

    /** How many slots there are (the rest of the units go to the overflow map). */
    int slotCount() {
        return slots.length();
    }

    /** Diagnostic: how many values are in the overflow map now (none while every unit has a slot of its own). */
    int overflowCount() {
        Map<JobKey, V> o = overflow;
        return o == null ? 0 : o.size();
    }

    /**
     * Puts {@code value} for its unit unless the unit has a value; returns that value, or null when {@code value} was
     * put.
     */
    V putIfAbsent(V value) {
        JobKey key = keyOf.apply(value);
        int i = slot(key);
        if (i < 0) {
            return overflow().putIfAbsent(key, value);
        }
        V there = slots.get(i);
        if (there == null) {
            // The unit may be in the overflow map from a time its slot was held by another unit.
            V elsewhere = inOverflow(key);
            if (elsewhere != null) {
                return elsewhere;
            }
            if (slots.compareAndSet(i, null, value)) {
                return null;
            }
            there = slots.get(i);
        }
        if (there != null && keyOf.apply(there).equals(key)) {
            return there;
        }
        return overflow().putIfAbsent(key, value);
    }

    /** The value of unit {@code key}, or null. */
    V get(JobKey key) {
        return get(key.segment(), key.stage());
    }

    /** The value of unit {@code (segment, stage)}, or null; makes no key unless the overflow map is asked. */
    V get(long segment, int stage) {
        int i = slot(segment, stage);
        if (i >= 0) {
            V there = slots.get(i);
            // The slot fixes the stage: only the segment can differ.
            if (there != null && keyOf.apply(there).segment() == segment) {
                return there;
            }
        }
        Map<JobKey, V> o = overflow;
        return o == null || o.isEmpty() ? null : o.get(new JobKey(segment, stage));
    }

    /** Removes {@code value} (the same instance) if it is present; returns whether it was. */
    boolean remove(V value) {
        JobKey key = keyOf.apply(value);
        int i = slot(key);
        if (i >= 0 && slots.get(i) == value && slots.compareAndSet(i, value, null)) {
            return true;
        }
        Map<JobKey, V> o = overflow;
        return o != null && o.remove(key, value);
    }

    /** Gives every value present to {@code action}: a look at each slot, then the overflow map. */
    void forEach(Consumer<? super V> action) {
        for (int i = 0; i < slots.length(); i++) {
            V there = slots.get(i);
            if (there != null) {
                action.accept(there);
            }
        }
        Map<JobKey, V> o = overflow;
        if (o != null) {
            o.values().forEach(action);
        }
    }

    private V inOverflow(JobKey key) {
        Map<JobKey, V> o = overflow;
        return o == null || o.isEmpty() ? null : o.get(key);
    }

    /** The overflow map, made now if no unit needed it before. */
    private Map<JobKey, V> overflow() {
        Map<JobKey, V> o = overflow;
        if (o == null) {
            OVERFLOW.compareAndSet(this, null, new ConcurrentHashMap<JobKey, V>());
            o = overflow;
        }
        return o;
    }

    private int slot(JobKey key) {
        return slot(key.segment(), key.stage());
    }

    /** The slot of unit {@code (segment, stage)}, or -1 when its stage has none. */
    private int slot(long segment, int stage) {
        if (stage >= slotStages) {
            return -1;
        }
        return (int) (segment & segmentMask) * slotStages + stage;
    }
}
