package dev.orderly.sim.tier2;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The child processes the simulator starts (tier2s, S3Proxy), started through one gate so that none outlives the
 * JVM that started it. A look at the JVM's children when it is told to stop (Ctrl-C, SIGTERM) is not enough: the
 * command's own thread goes on starting the next child until the JVM halts. Here a start and {@link #stopAll()} take
 * the same lock, so a child is either started before the stop, and ended by it, or never started.
 *
 * <p>{@link #ofThisJvm()} is the gate every simulator command uses; a shutdown hook stops it as the JVM ends.
 *
 * <h2>Invariants (guarded by {@code lock})</h2>
 * {@code started} holds every process started through this gate that was alive when last looked at; once
 * {@code stopping} is set, {@link #start} starts nothing. The lock is held across {@link ProcessBuilder#start()}
 * (a fork, milliseconds), never across a wait for a process to end. This class is thread-safe.
 */
public final class ChildProcesses {

    private static final long DRAIN_SECONDS = 15;

    private static final class OfThisJvm {
        static final ChildProcesses GATE = new ChildProcesses();

        static {
            try {
                Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().name("orderly-children-stop")
                        .unstarted(GATE::stopAll));
            } catch (IllegalStateException shuttingDown) {
                GATE.stopAll(); // first used as the JVM ends: nothing may start
            }
        }
    }

    private final ReentrantLock lock = new ReentrantLock();
    // guarded by lock
    private final List<Process> started = new ArrayList<>();
    // guarded by lock
    private boolean stopping;

    /** A gate of its own (tests); commands use {@link #ofThisJvm()}. */
    public ChildProcesses() {
    }

    /** The gate of this JVM, stopped by a shutdown hook as the JVM ends. */
    public static ChildProcesses ofThisJvm() {
        return OfThisJvm.GATE;
    }

    /**
     * Starts {@code builder}'s process, unless this gate is stopping.
     *
     * @throws IOException if the gate is stopping (the JVM is ending), or the process can not start
     */
    public Process start(ProcessBuilder builder) throws IOException {
        lock.lock();
        try {
            if (stopping) {
                throw new IOException("the command is stopping: no process is started after it is told to stop");
            }
            started.removeIf(p -> !p.isAlive()); // keeps a long-lived JVM's list as short as its live children
            Process p = builder.start();
            started.add(p);
            return p;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Stops every child started and starts no more: SIGTERM, up to 15 s for them to end, then SIGKILL. Returns when
     * all have ended, or after a bounded wait if the OS does not let one go, also when another thread is stopping
     * them at the same time (each call waits for every child). Idempotent. Restores the interrupt flag if interrupted
     * (the rest are then killed without waiting).
     */
    public void stopAll() {
        List<Process> all;
        lock.lock();
        try {
            stopping = true;
            // Kept, not cleared: a second call (the command's hook while the gate's own drains) waits for them too.
            all = List.copyOf(started);
        } finally {
            lock.unlock();
        }
        all.forEach(Process::destroy);
        boolean interrupted = false;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(DRAIN_SECONDS);
        for (Process p : all) {
            try {
                if (interrupted || !p.waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                    p.destroyForcibly();
                }
            } catch (InterruptedException e) {
                interrupted = true;
                p.destroyForcibly();
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Whether {@link #stopAll()} has been called. */
    public boolean isStopping() {
        lock.lock();
        try {
            return stopping;
        } finally {
            lock.unlock();
        }
    }
}
