package dev.orderly.sim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tier2 process of {@code orderly fleet} that ended before it listened was reported as {@code orderly: tier2 0
 * ended before it listened (exit 1, see /tmp/orderly-fleet-…/run-0/tier2-0.log)}, but the command had already
 * deleted its temporary directory, that log with it: the one place that said why was gone before the line naming
 * it was printed (the same for S3Proxy's {@code s3proxy.log}). The logs now outlive a failed start.
 *
 * <p>The test makes the child fail for sure by giving it a class path with nothing on it (the child JVM says it
 * cannot find {@code Tier2Main} and exits 1); the test JVM's own classes are already loaded and do not change.
 */
@Timeout(120)
class AFleetThatWouldNotStartKeepsTheLogItNamesTest {

    private static final Pattern LOG = Pattern.compile("see (\\S+\\.log)\\)");

    @TempDir
    Path dir;

    @Test
    void theLogNamedByTheErrorIsThereToRead() throws IOException {
        String classPath = System.getProperty("java.class.path");
        Path kept = null;
        try {
            System.setProperty("java.class.path", dir.resolve("no-classes-here").toString());
            CliRun o = CliRun.of("fleet", "--plaintext", "-q", "--instances=1", "--tenants=1", "--segments=1",
                    "--stages=1", "--workers=1", "--slots=1", "--admission=refuse",
                    "-o", dir.resolve("t.svg").toString());
            assertEquals(1, o.code(), o.out() + o.err());
            assertTrue(o.err().contains("ended before it listened"), o.err());
            Matcher m = LOG.matcher(o.err());
            assertTrue(m.find(), "the error names a log: " + o.err());
            Path log = Path.of(m.group(1));
            kept = log.getParent().getParent(); // <work>/run-0/tier2-0.log: <work> is what the command made
            assertTrue(Files.isRegularFile(log), "the log the error names was deleted: " + log + "\n" + o.err());
            assertTrue(Files.readString(log).contains("Tier2Main"), "the child's own words are in " + log);
            assertTrue(ProcessHandle.current().children().noneMatch(ProcessHandle::isAlive),
                    "a tier2 process outlived the command");
        } finally {
            System.setProperty("java.class.path", classPath);
            if (kept != null && Files.exists(kept)) {
                try (Stream<Path> paths = Files.walk(kept)) {
                    paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                }
            }
        }
    }
}
