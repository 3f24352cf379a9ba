package dev.orderly.multihost;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Two multi-host runs on one machine (two clones' {@code mvn verify}, two CI jobs on one runner): the second one's
 * clean-up of "what a killed run left" must not kill the first one's hosts while the first is alive. The first run is
 * a child JVM that builds the network and keeps it; a process on one of its hosts stands for its fleet.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ASecondRunLeavesALiveRunsHostsAloneTest {

    @Test
    void aSecondRunsStartLeavesTheFirstRunsProcessesRunning() throws Exception {
        Process first = new ProcessBuilder(ProcessHandle.current().info().command().orElseThrow(),
                "--enable-preview", "-cp", System.getProperty("java.class.path"), FirstRun.class.getName())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        Process fleet = null;
        CompletableFuture<Network> second = null;
        try {
            BufferedReader said = new BufferedReader(new InputStreamReader(first.getInputStream(),
                    StandardCharsets.UTF_8));
            String line = said.readLine(); // within seconds: "ready", or why namespaces can not be made
            assumeTrue(line != null && line.equals("ready"), () -> "multi-host test skipped: " + said.lines().toList());

            String ns = Network.TIER2.get(0).namespace();
            fleet = new ProcessBuilder("ip", "netns", "exec", ns, "sleep", "300").start();
            long pid = fleet.pid();
            await("the first run's process in " + ns).atMost(Duration.ofSeconds(10))
                    .until(() -> Network.pidsIn(ns).contains(pid));

            // The second run starts while the first one is alive.
            second = CompletableFuture.supplyAsync(() -> {
                try {
                    return Network.create();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            Process alive = fleet;
            await("the first run's process on " + ns + " while a second run starts").during(Duration.ofSeconds(5))
                    .atMost(Duration.ofSeconds(10)).until(alive::isAlive);

            first.getOutputStream().close(); // the first run ends: it removes its network and exits
            assertTrue(first.waitFor(60, TimeUnit.SECONDS), "the first run ended");
            Network net = second.get(60, TimeUnit.SECONDS);
            net.close();
        } finally {
            if (fleet != null) {
                fleet.destroyForcibly();
                fleet.waitFor(10, TimeUnit.SECONDS);
            }
            first.destroyForcibly();
            first.waitFor(30, TimeUnit.SECONDS);
            if (second != null) {
                try {
                    second.get(60, TimeUnit.SECONDS);
                } catch (Exception e) {
                    // its failure, if any, is the test's; the clean-up below runs either way
                }
            }
            Network.removeLeftovers();
        }
    }

    /** The first run: builds the network, says "ready", keeps it until its standard input ends, then removes it. */
    public static final class FirstRun {
        public static void main(String[] args) throws Exception {
            Optional<String> why = Network.whyUnavailable();
            if (why.isPresent()) {
                System.out.println("unavailable");
                System.out.println(why.get());
                return;
            }
            try (Network net = Network.create()) {
                System.out.println("ready");
                System.out.flush();
                System.in.readAllBytes();
            }
            System.exit(0);
        }
    }
}
