package dev.orderly.tier2;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A {@code Tier2Main} child process on loopback, run by this JDK with the test class path: {@link #start} returns once
 * it printed {@code listening on 127.0.0.1:<port>}; {@link #close()} sends SIGTERM, waits (bounded), then SIGKILL.
 */
final class Tier2Child implements AutoCloseable {

    private final Process process;
    private final int port;

    private Tier2Child(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    static Tier2Child start(Path logs, Map<String, String> env, String... args) throws Exception {
        List<String> command = command(args);
        Files.createDirectories(logs);
        Path log = Files.createTempFile(logs, "tier2-", ".log");
        ProcessBuilder pb = new ProcessBuilder(command).redirectError(log.toFile());
        pb.environment().putAll(env);
        Process p = pb.start();
        CompletableFuture<String> first = new CompletableFuture<>();
        Thread.ofVirtual().start(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(),
                    StandardCharsets.UTF_8))) {
                first.complete(r.readLine());
                while (r.readLine() != null) {
                    // drained, so that the child never blocks on a full pipe
                }
            } catch (IOException e) {
                first.completeExceptionally(e);
            }
        });
        try {
            String line = first.get(60, TimeUnit.SECONDS);
            if (line == null || !line.startsWith("listening on 127.0.0.1:")) {
                throw new IllegalStateException("tier2 said '" + line + "'; its log: " + Files.readString(log));
            }
            return new Tier2Child(p, Integer.parseInt(line.substring(line.lastIndexOf(':') + 1).strip()));
        } catch (Exception | Error e) {
            stop(p);
            throw e;
        }
    }

    /** What a child that ended by itself said: its exit code and its two streams. */
    record Ended(int code, String out, String err) {
    }

    /**
     * Runs a {@code Tier2Main} child that should end by itself (a bad option, a failure to start) and returns what it
     * said; one still running after {@code bound} is stopped and is an {@link AssertionError} with its output.
     */
    static Ended runToExit(Path logs, Duration bound, String... args) throws Exception {
        return runToExit(logs, bound, Map.of(), List.of(), args);
    }

    /**
     * As {@link #runToExit(Path, Duration, String...)}, with {@code env} set and the variables in {@code unset}
     * removed from the child's environment.
     */
    static Ended runToExit(Path logs, Duration bound, Map<String, String> env, List<String> unset, String... args)
            throws Exception {
        List<String> command = command(args);
        Files.createDirectories(logs);
        Path out = Files.createTempFile(logs, "tier2-", ".out");
        Path err = Files.createTempFile(logs, "tier2-", ".err");
        ProcessBuilder pb = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
        pb.environment().keySet().removeAll(unset);
        pb.environment().putAll(env);
        Process p = pb.start();
        try {
            if (!p.waitFor(bound.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError("tier2 " + String.join(" ", args) + " still ran after " + bound
                        + "; it said: " + Files.readString(out).strip() + " / " + Files.readString(err).strip());
            }
            return new Ended(p.exitValue(), Files.readString(out).strip(), Files.readString(err).strip());
        } finally {
            stop(p);
        }
    }

    Process process() {
        return process;
    }

    String address() {
        return "127.0.0.1:" + port;
    }

    private static void stop(Process p) throws InterruptedException {
        p.destroy();
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** SIGTERM, then SIGKILL after 30 s; an interrupt kills it at once and keeps the flag. */
    @Override
    public void close() {
        try {
            stop(process);
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    /** This JVM's {@code java} running {@code Tier2Main} on a free port, with {@code args}, on the test class path. */
    private static List<String> command(String... args) {
        List<String> command = new ArrayList<>(List.of(
                ProcessHandle.current().info().command().orElseThrow(),
                "--enable-native-access=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"),
                Tier2Main.class.getName(), "--port=0"));
        command.addAll(List.of(args));
        return command;
    }
}
