package dev.orderly.sim.fleet;

import java.time.Duration;
import java.util.Objects;

/**
 * How a full instance of the simulated fleet answers a dial, and how long the dials that use its waiting room wait.
 * Immutable.
 *
 * <p>With {@link Mode#REFUSE} a full instance refuses every dial at once, like the original tier2. With
 * {@link Mode#WAIT} each instance has a waiting room of {@code room} seats: a dial that asks to wait (a tenant using
 * ordered launch with the waiting room) takes a seat at {@code waitAt} instances at once, is admitted into the first
 * slot that frees at any of them (fewest running tenant first, round robin among equals, its lowest segment; see
 * {@link dev.orderly.grpc.room.WaitingRoom}), and is refused if none frees within {@code maxWait}. Dials that do not
 * ask to wait (ordered launch without the room, the unordered baseline, old clients) are refused at once as before.
 *
 * @param mode refuse at once, or hold waiting dials
 * @param maxWait the longest a dial waits, simulated time, {@code > 0} with {@link Mode#WAIT}
 * @param room seats in each instance's waiting room, {@code >= 1} with {@link Mode#WAIT}
 * @param waitAt instances a waiting dial waits at at once, {@code >= 1} with {@link Mode#WAIT}
 */
public record Admission(Mode mode, Duration maxWait, int room, int waitAt) {

    /** How a full instance answers a dial that asks to wait. */
    public enum Mode {
        /** At once, with a refusal: the original tier2. */
        REFUSE,
        /** It holds the dial in its waiting room until a slot frees or the wait ends. */
        WAIT
    }

    /** The original tier2: no waiting room. */
    public static final Admission REFUSE = new Admission(Mode.REFUSE, Duration.ZERO, 0, 1);

    /**
     * @throws IllegalArgumentException naming the field and the value when one is out of range
     * @throws NullPointerException naming the field that is null
     */
    public Admission {
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(maxWait, "maxWait");
        if (mode == Mode.WAIT) {
            if (!maxWait.isPositive()) {
                throw new IllegalArgumentException("admission wait must be > 0, was " + maxWait);
            }
            if (room < 1) {
                throw new IllegalArgumentException("waiting room seats must be >= 1, was " + room);
            }
            if (waitAt < 1) {
                throw new IllegalArgumentException("instances a dial waits at must be >= 1, was " + waitAt);
            }
        }
    }

    /** A waiting room of {@code room} seats per instance; dials wait up to {@code maxWait} at {@code waitAt} instances. */
    public static Admission waiting(Duration maxWait, int room, int waitAt) {
        return new Admission(Mode.WAIT, maxWait, room, waitAt);
    }

    /** Whether the instances have waiting rooms. */
    public boolean hasRoom() {
        return mode == Mode.WAIT;
    }

    /** Seats per instance: 0 without a room. */
    public int seats() {
        return hasRoom() ? room : 0;
    }
}
