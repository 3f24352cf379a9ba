package dev.orderly.engine.internal;

import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The rule of the engine-wide job cap ({@code EngineConfig.maxConcurrentJobs}), with no threads: how many permits
 * each request of one engine holds, which requests wait for one, and who gets a permit when one frees.
 *
 * <h2>The rule</h2>
 * <ul>
 *   <li>A request holds one permit per alive job. A job is alive, for the cap, from the moment its request takes the
 *       permit (just before its scheduler hands the job out to be forked) until the job's end is reported to the
 *       scheduler (the last thing its thread does): queued, dialing, admitted, running or sitting out a delay alike.
 *   <li>While a permit is free nobody waits: a request that asks takes it at once.
 *   <li>When none is free, a request that asks waits, holding nothing for the job it wants.
 *   <li>A freed permit never lies free while someone waits: it is handed, at once, to the waiting request with the
 *       fewest permits; among equals, the one that has waited longest. So a request with no alive job is always served
 *       before any request that has one, and a wide request can not starve a narrow one: the permits fill up each
 *       request's share level by level (max-min fairness; each request's own {@code workers} caps what it asks for).
 *   <li>A handed permit is the request's ({@code granted}) until it takes it for its next job, or gives it on when it
 *       no longer wants one (it is stopped, or what it wanted to launch went away).
 * </ul>
 *
 * <h2>Why each request's next job gets a permit</h2>
 * A permit is held only by a job that has been forked (or, for an instant, by a hand-over about to be forked), and
 * a forked job never waits for a permit: it ends on its own (done, failed, withdrawn or cancelled), so permits keep
 * freeing while anything is alive. A waiting request's count never rises while it waits; each of its own jobs that
 * ends lowers it, and at zero it is ahead of everyone with a job, behind only the requests that reached zero before
 * it. So every waiting request is served within the life of its own alive jobs, and the next permit a request gets
 * goes to its lowest launchable unit, since its scheduler picks the unit only once it holds the permit.
 *
 * <p>Not thread-safe: {@link EngineJobCap} guards it with its lock, which every method asserts is held (with
 * {@code -ea}, as in the tests); every change ends by asserting {@link #invariantsHold()}.
 */
final class JobShares {

    /** One request's place at the cap. Fields are guarded by the board's guard. */
    static final class Seat {
        private final String requestId;
        // Permits this request holds: its alive jobs, plus one if granted.
        private int held;
        // A permit was handed to this request while it waited and it has not taken it for a job yet.
        private boolean granted;
        // The order in which it began waiting, or -1 while it does not wait.
        private long waitingSince = -1;
        private boolean closed;
        // The monitor's wake-up for this request's owner (EngineJobCap); the rule never touches it.
        Condition turn;

        private Seat(String requestId) {
            this.requestId = requestId;
        }

        @Override
        public String toString() {
            return requestId + "[held " + held + (granted ? ", granted" : "") + (waitingSince >= 0 ? ", waiting" : "")
                    + (closed ? ", closed" : "") + "]";
        }
    }

    /** The fewest permits first, then the longest waiting; unique, since every wait gets its own number. */
    private static final Comparator<Seat> TURN = Comparator.<Seat>comparingInt(seat -> seat.held)
            .thenComparingLong(seat -> seat.waitingSince);

    private final int limit;
    private final ReentrantLock guard;
    private final TreeSet<Seat> waiting = new TreeSet<>(TURN);
    // Seats that are open or still hold a permit; kept for invariantsHold only.
    private final Set<Seat> seats = new HashSet<>();
    private int alive;
    private long waits;

    /**
     * @param limit the most permits held at once, {@code >= 1}
     * @param guard the lock every call must hold (asserted), or null when one thread owns the board (tests)
     */
    JobShares(int limit, ReentrantLock guard) {
        if (limit < 1) {
            throw new IllegalArgumentException("maxConcurrentJobs must be >= 1 for a cap, was " + limit);
        }
        this.limit = limit;
        this.guard = guard;
    }

    /** A new request's seat: it holds nothing and waits for nothing. */
    Seat join(String requestId) {
        assert held();
        Seat seat = new Seat(requestId);
        seats.add(seat);
        return seat;
    }

    /**
     * {@code seat} wants a permit for a job: true if it now holds one for it (the one handed to it, or a free one);
     * false if it waits (it joins the waiting, or stays there) or is closed.
     */
    boolean take(Seat seat) {
        assert held();
        try {
            if (seat.closed) {
                return false;
            }
            if (seat.granted) {
                seat.granted = false;
                return true;
            }
            if (alive < limit) {
                seat.held++;
                alive++;
                return true;
            }
            if (seat.waitingSince < 0) {
                seat.waitingSince = waits++;
                waiting.add(seat);
            }
            return false;
        } finally {
            assert invariantsHold() : this;
        }
    }

    /**
     * A job of {@code seat} has ended: its permit goes, at once, to the waiting request whose turn it is.
     *
     * @return the seat it was handed to (its owner is to be woken), or null if nobody waits
     */
    Seat release(Seat seat) {
        return release(seat, false);
    }

    /**
     * As {@link #release(Seat)}; with {@code wantsAnother}, the request already has its next unit to launch, so it
     * waits from this moment on (it takes its turn with the others for the permit just freed) rather than from when
     * its owner thread gets round to asking: otherwise every job end of a request at its full width would hand the
     * permit to someone else and leave it waiting behind.
     */
    Seat release(Seat seat, boolean wantsAnother) {
        assert held();
        if (seat.held - (seat.granted ? 1 : 0) < 1) {
            throw new IllegalStateException(seat + " released a permit it does not hold");
        }
        // Its place in the turn order depends on what it holds: out while that changes.
        boolean wasWaiting = waiting.remove(seat);
        seat.held--;
        alive--;
        if (wasWaiting) {
            waiting.add(seat);
        } else if (wantsAnother && !seat.closed && !seat.granted) {
            seat.waitingSince = waits++;
            waiting.add(seat);
        } else if (seat.closed && seat.held == 0) {
            seats.remove(seat);
        }
        return handOn();
    }

    /**
     * {@code seat} no longer wants a permit (nothing to launch, or its request stopped): it leaves the waiting, and a
     * permit handed to it that it has not taken goes on.
     *
     * @return the seat that permit was handed to, or null
     */
    Seat withdraw(Seat seat) {
        assert held();
        if (seat.waitingSince >= 0) {
            waiting.remove(seat);
            seat.waitingSince = -1;
        }
        if (!seat.granted) {
            assert invariantsHold() : this;
            return null;
        }
        seat.granted = false;
        seat.held--;
        alive--;
        return handOn();
    }

    /**
     * {@code seat}'s request has stopped: as {@link #withdraw}, and from now on {@link #take} says no. The permits of
     * its alive jobs come back through {@link #release} as they end.
     */
    Seat close(Seat seat) {
        assert held();
        seat.closed = true;
        Seat next = withdraw(seat);
        if (seat.held == 0) {
            seats.remove(seat);
        }
        return next;
    }

    /**
     * A job of {@code seat} gave its worker up so that its request's client can have its segment re-run: the
     * permit stays with the request, handed to it for that re-run, instead of going to another request (its count
     * does not change). If the request already has one handed to it, this one is released as usual.
     *
     * @return the seat a released permit was handed to, or null
     */
    Seat keep(Seat seat) {
        assert held();
        if (seat.granted || seat.closed) {
            return release(seat);
        }
        if (seat.held < 1) {
            throw new IllegalStateException(seat + " kept a permit it does not hold");
        }
        if (seat.waitingSince >= 0) {
            waiting.remove(seat);
            seat.waitingSince = -1;
        }
        seat.granted = true;
        assert invariantsHold() : this;
        return null;
    }

    /** Whether {@code seat} asking for a permit now would have to wait: none is handed to it and none is free. */
    boolean wouldWait(Seat seat) {
        assert held();
        return !seat.granted && alive >= limit;
    }

    /**
     * One request's place at the cap, as a diagnostic sees it.
     *
     * @param held the permits it holds (its alive jobs, plus one if granted)
     * @param waiting whether it waits for one more
     */
    record Share(int held, boolean waiting) {
    }

    /** Each request's share, by request id (a diagnostic snapshot, in no order). */
    Map<String, Share> shares() {
        assert held();
        Map<String, Share> shares = new HashMap<>();
        for (Seat seat : seats) {
            shares.put(seat.requestId, new Share(seat.held, seat.waitingSince >= 0));
        }
        return shares;
    }

    private Seat handOn() {
        assert held();
        try {
            if (alive >= limit || waiting.isEmpty()) {
                return null;
            }
            Seat next = waiting.pollFirst();
            next.waitingSince = -1;
            next.granted = true;
            next.held++;
            alive++;
            return next;
        } finally {
            assert invariantsHold() : this;
        }
    }

    /** Whether a permit was handed to {@code seat} and not yet taken. */
    boolean granted(Seat seat) {
        assert held();
        return seat.granted;
    }

    /** Whether {@code seat} waits for a permit. */
    boolean isWaiting(Seat seat) {
        assert held();
        return seat.waitingSince >= 0;
    }

    /** Whether {@code seat} was closed. */
    boolean isClosed(Seat seat) {
        assert held();
        return seat.closed;
    }

    /** The permits {@code seat} holds: its alive jobs, plus one if granted. */
    int held(Seat seat) {
        assert held();
        return seat.held;
    }

    /** The permits held, by every request together; never more than the limit. */
    int alive() {
        assert held();
        return alive;
    }

    /** The requests waiting for a permit. */
    int waiting() {
        assert held();
        return waiting.size();
    }

    int limit() {
        return limit;
    }

    /**
     * {@code 0 <= alive <= limit}, {@code alive} is what the seats hold, nobody waits while a permit is free, a waiting
     * seat is open and holds no handed permit, a granted seat counts it.
     */
    boolean invariantsHold() {
        assert held();
        if (alive < 0 || alive > limit || (alive < limit && !waiting.isEmpty())) {
            return false;
        }
        int sum = 0;
        for (Seat seat : seats) {
            sum += seat.held;
            if (seat.held < (seat.granted ? 1 : 0) || (seat.waitingSince >= 0) != waiting.contains(seat)) {
                return false;
            }
        }
        for (Seat seat : waiting) {
            if (seat.closed || seat.granted) {
                return false;
            }
        }
        return sum == alive;
    }

    private boolean held() {
        return guard == null || guard.isHeldByCurrentThread();
    }

    @Override
    public String toString() {
        return "JobShares[alive " + alive + " of " + limit + ", waiting " + waiting + "]";
    }
}
