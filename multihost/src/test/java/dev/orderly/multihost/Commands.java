package dev.orderly.multihost;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs a short system command ({@code ip}, {@code kill}) to its end within a bounded time and says what went wrong
 * in one line. Stateless.
 */
final class Commands {

    private static final long TIMEOUT_SECONDS = 20;

    private Commands() {
    }

    /** Runs {@code command}; returns its standard output. */
    static String run(String... command) throws IOException {
        return run(List.of(command));
    }

    /** Runs {@code command}; returns its standard output. */
    static String run(List<String> command) throws IOException {
        Result r = tryRun(command);
        if (r.exit != 0) {
            throw new IOException(String.join(" ", command) + " exited " + r.exit + ": " + r.err.strip());
        }
        return r.out;
    }

    /** Runs {@code command} and returns how it ended, whatever its exit code. */
    static Result tryRun(List<String> command) throws IOException {
        Process p = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(devNull())).start();
        try {
            // The outputs are small (a list of namespaces, one error line): reading them after the exit can not
            // fill a pipe and block the command.
            if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException(String.join(" ", command) + " did not end within " + TIMEOUT_SECONDS + " s");
            }
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            return new Result(p.exitValue(), out, err);
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while running " + String.join(" ", command), e);
        }
    }

    private static java.io.File devNull() {
        return new java.io.File("/dev/null");
    }

    /** How a command ended. */
    record Result(int exit, String out, String err) {
    }
}
