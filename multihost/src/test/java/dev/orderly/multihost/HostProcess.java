package dev.orderly.multihost;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;

/**
 * One process on one host: {@code ip netns exec <namespace> <command>}, which enters the namespace and then
 * <em>executes</em> the command in its own place, so {@link Process#pid()} is the command itself and a signal to it
 * (SIGKILL, SIGSTOP) reaches the program, not a wrapper. Every line of its standard output is kept with the
 * {@link System#nanoTime()} at which this JVM read it; its standard error goes to a log file.
 *
 * <h2>Invariants (guarded by {@code lock})</h2>
 * {@code lines} grows only, in the order the process wrote them; {@code ended} turns true once, when its output
 * closes, and {@code changed} is signalled on every line and at the end. Thread-safe.
 */
final class HostProcess implements AutoCloseable {

    /** A line of output and when it was read. */
    record Line(String text, long nanos) {
    }

    private final String name;
    private final Process process;
    private final Path log;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    // guarded by lock
    private final List<Line> lines = new ArrayList<>();
    // guarded by lock
    private boolean ended;

    private HostProcess(String name, Process process, Path log) {
        this.name = name;
        this.process = process;
        this.log = log;
    }

    /**
     * Starts {@code command} in {@code namespace}, with {@code environment} added to this JVM's.
     *
     * @param name what the test calls it ("tier2-1"), for messages and the log file's name
     */
    static HostProcess start(String name, String namespace, List<String> command, Map<String, String> environment,
                             Path logs) throws IOException {
        List<String> full = new ArrayList<>(List.of("ip", "netns", "exec", namespace));
        full.addAll(command);
        Path log = logs.resolve(name + ".log");
        ProcessBuilder pb = new ProcessBuilder(full);
        pb.environment().putAll(environment);
        Process p = pb
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .start();
        HostProcess hp = new HostProcess(name, p, log);
        Thread.ofVirtual().name(name + "-stdout").start(hp::readLines);
        return hp;
    }

    private void readLines() {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            String text;
            while ((text = r.readLine()) != null) {
                long now = System.nanoTime();
                lock.lock();
                try {
                    lines.add(new Line(text, now));
                    changed.signalAll();
                } finally {
                    lock.unlock();
                }
            }
        } catch (IOException e) {
            // the process was killed and its pipe closed under the reader: its output has ended
        } finally {
            lock.lock();
            try {
                ended = true;
                changed.signalAll();
            } finally {
                lock.unlock();
            }
        }
    }

    /**
     * Waits for the first line that matches {@code match}, up to {@code timeout}.
     *
     * @throws IOException if the output ends or the time passes first; the message names the log file
     */
    Line awaitLine(Predicate<String> match, Duration timeout, String what) throws IOException,
            InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        lock.lock();
        try {
            int seen = 0;
            while (true) {
                for (; seen < lines.size(); seen++) {
                    if (match.test(lines.get(seen).text())) {
                        return lines.get(seen);
                    }
                }
                if (ended) {
                    throw new IOException(name + " ended before " + what + " (exit " + exitText() + "; see "
                            + log + ")");
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new IOException(name + " did not show " + what + " within " + timeout + " (see " + log
                            + ")");
                }
                changed.awaitNanos(left);
            }
        } finally {
            lock.unlock();
        }
    }

    /** The first line after {@code afterNanos} that matches {@code match}, if one was read. */
    Optional<Line> firstAfter(long afterNanos, Predicate<String> match) {
        return lines().stream().filter(l -> l.nanos() > afterNanos && match.test(l.text())).findFirst();
    }

    /** Every line read so far. */
    List<Line> lines() {
        lock.lock();
        try {
            return List.copyOf(lines);
        } finally {
            lock.unlock();
        }
    }

    /** Waits up to {@code timeout} for the process to end; returns its exit code. */
    int awaitExit(Duration timeout) throws IOException, InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new IOException(name + " did not exit within " + timeout + " (see " + log + ")");
        }
        return process.exitValue();
    }

    long pid() {
        return process.pid();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    Path log() {
        return log;
    }

    /** {@code kill -9}: the host's process ends at once, its connections with it (the kernel resets them). */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }

    /** {@code kill -STOP}: the process freezes; its sockets stay open and the kernel still accepts connections. */
    void freeze() throws IOException {
        Commands.run("kill", "-STOP", Long.toString(process.pid()));
    }

    /** {@code kill -CONT}. */
    void thaw() throws IOException {
        Commands.run("kill", "-CONT", Long.toString(process.pid()));
    }

    /** SIGTERM: a tier2 drains and exits. */
    void terminate() {
        process.destroy();
    }

    private String exitText() {
        return process.isAlive() ? "none yet" : String.valueOf(process.exitValue());
    }

    /** SIGKILL (a stopped process ends too) and a bounded wait for the end. Idempotent. */
    @Override
    public void close() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }
}
