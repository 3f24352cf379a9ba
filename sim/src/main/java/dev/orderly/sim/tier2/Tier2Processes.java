package dev.orderly.sim.tier2;

import dev.orderly.sim.cli.DurationConverter;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A fleet of tier2 child processes on 127.0.0.1, each a {@code Tier2Main} run by the same JDK with the same class
 * path. {@link #start} waits (bounded) for each child's {@code listening on} line and reads its port from it;
 * {@link #close()} stops every child still alive (SIGTERM, then SIGKILL), waits for it, and is safe to call from a
 * shutdown hook. A child's standard error goes to {@code <logs>/tier2-<i>.log}. Each child is started through
 * {@link ChildProcesses#ofThisJvm()}, so none outlives this JVM, not even one started as it ends.
 *
 * <h2>Invariants (guarded by {@code lock})</h2>
 * {@code children} holds every process started, dead or alive, until {@link #close()}; nothing is started after it.
 * This class is thread-safe.
 */
public final class Tier2Processes implements AutoCloseable {

    private static final String MAIN = "dev.orderly.tier2.Tier2Main";
    private static final String READY = "listening on ";

    private final ReentrantLock lock = new ReentrantLock();
    // guarded by lock
    private final List<Process> children = new ArrayList<>();
    // guarded by lock
    private final List<Integer> ports = new ArrayList<>();
    // guarded by lock
    private boolean closed;

    /**
     * Starts {@code count} tier2 processes and waits until each listens.
     *
     * @param count how many
     * @param args the arguments of each ({@code --max-concurrent}, {@code --outputs}, the work options)
     * @param logs where each child's standard error goes
     * @param startTimeout how long to wait for one child's first line
     * @throws IOException if a child can not start or does not say it listens in time; the ones started are stopped
     */
    public static Tier2Processes start(int count, List<String> args, Path logs, Duration startTimeout)
            throws IOException, InterruptedException {
        return start(count, args, Map.of(), logs, startTimeout);
    }

    /**
     * As {@link #start(int, List, Path, Duration)}, with {@code env} added to each child's environment (the AWS SDK's
     * credentials for {@code s3://} outputs, say).
     */
    public static Tier2Processes start(int count, List<String> args, Map<String, String> env, Path logs,
                                       Duration startTimeout) throws IOException, InterruptedException {
        Tier2Processes fleet = new Tier2Processes();
        try {
            List<CompletableFuture<String>> firstLines = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                firstLines.add(fleet.launch(i, args, env, logs)); // all at once: their JVMs start in parallel
            }
            for (int i = 0; i < count; i++) {
                fleet.awaitListening(i, firstLines.get(i), logs, startTimeout);
            }
            return fleet;
        } catch (IOException | InterruptedException | RuntimeException e) {
            fleet.close();
            throw e;
        }
    }

    private CompletableFuture<String> launch(int i, List<String> args, Map<String, String> env, Path logs)
            throws IOException {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse(
                Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.add("--enable-preview");
        command.add("--enable-native-access=ALL-UNNAMED"); // Netty loads its native transport
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(MAIN);
        command.add("--port=0");
        command.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.appendTo(logs.resolve("tier2-" + i + ".log").toFile()));
        pb.environment().putAll(env);
        Process p;
        lock.lock();
        try {
            if (closed) {
                throw new IllegalStateException("the fleet is closed");
            }
            p = ChildProcesses.ofThisJvm().start(pb);
            children.add(p);
        } finally {
            lock.unlock();
        }
        CompletableFuture<String> first = new CompletableFuture<>();
        Thread.ofVirtual().name("tier2-" + i + "-stdout").start(() -> readLines(p, first));
        return first;
    }

    private void awaitListening(int i, CompletableFuture<String> first, Path logs, Duration startTimeout)
            throws IOException, InterruptedException {
        Process p = processes().get(i);
        String line;
        try {
            line = first.get(startTimeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new IOException("tier2 " + i + " did not say it listens within "
                    + DurationConverter.format(startTimeout) + " (see " + logs.resolve("tier2-" + i + ".log") + ")");
        } catch (ExecutionException e) {
            throw new IOException("tier2 " + i + " ended before it listened (exit " + exitOf(p) + ", see "
                    + logs.resolve("tier2-" + i + ".log") + ")", e.getCause());
        }
        if (line == null || !line.startsWith(READY)) {
            throw new IOException("tier2 " + i + " said '" + line + "' instead of '" + READY + "<host>:<port>'");
        }
        int port = Integer.parseInt(line.substring(line.lastIndexOf(':') + 1).strip());
        lock.lock();
        try {
            ports.add(port);
        } finally {
            lock.unlock();
        }
    }

    /** Completes {@code first} with the child's first line, then keeps draining its output so it never blocks. */
    private static void readLines(Process p, CompletableFuture<String> first) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line = r.readLine();
            if (line == null) {
                first.completeExceptionally(new IOException("no output"));
                return;
            }
            first.complete(line);
            while (r.readLine() != null) {
                // drained
            }
        } catch (IOException e) {
            first.completeExceptionally(e);
        }
    }

    private static String exitOf(Process p) {
        try {
            return p.waitFor(1, TimeUnit.SECONDS) ? String.valueOf(p.exitValue()) : "none yet";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown";
        }
    }

    /** The {@code 127.0.0.1:<port>} of every child, in start order. */
    public List<String> addresses() {
        lock.lock();
        try {
            return ports.stream().map(p -> "127.0.0.1:" + p).toList();
        } finally {
            lock.unlock();
        }
    }

    /** The child processes, in start order. */
    public List<Process> processes() {
        lock.lock();
        try {
            return List.copyOf(children);
        } finally {
            lock.unlock();
        }
    }

    /** {@code kill -9} of child {@code i}: it ends at once, its running jobs and connections with it. */
    public void kill(int i) {
        processes().get(i).destroyForcibly();
    }

    /** SIGTERM to child {@code i}: it drains and exits. */
    public void terminate(int i) {
        processes().get(i).destroy();
    }

    /** True while any child is alive. */
    public boolean anyAlive() {
        return processes().stream().anyMatch(Process::isAlive);
    }

    /**
     * Stops every child: SIGTERM, up to 15 s to drain, then SIGKILL; returns when all have ended (or after a bounded
     * wait if the OS does not let them go). Idempotent.
     */
    @Override
    public void close() {
        List<Process> all;
        lock.lock();
        try {
            closed = true;
            all = List.copyOf(children);
        } finally {
            lock.unlock();
        }
        all.forEach(Process::destroy);
        boolean interrupted = false;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        for (Process p : all) {
            try {
                if (!p.waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                    p.destroyForcibly();
                }
            } catch (InterruptedException e) {
                interrupted = true;
                p.destroyForcibly();
            }
        }
        for (Process p : all) {
            p.destroyForcibly();
            try {
                p.waitFor(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
