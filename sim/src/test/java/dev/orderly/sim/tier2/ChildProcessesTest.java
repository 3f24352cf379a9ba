package dev.orderly.sim.tier2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(120)
class ChildProcessesTest {

    /** A child that lives until it is stopped. */
    private static ProcessBuilder aSleeper() {
        return new ProcessBuilder("sleep", "600");
    }

    @Test
    void stopAllEndsEveryChildStartedAndStartsNoMore() throws Exception {
        ChildProcesses gate = new ChildProcesses();
        List<Process> started = new ArrayList<>();
        try {
            started.add(gate.start(aSleeper()));
            started.add(gate.start(aSleeper()));
            assertTrue(started.stream().allMatch(Process::isAlive));
            assertFalse(gate.isStopping());

            gate.stopAll();

            assertTrue(gate.isStopping());
            assertEquals(List.of(), started.stream().filter(Process::isAlive).toList(), "children alive after stopAll");
            IOException refused = assertThrows(IOException.class, () -> gate.start(aSleeper()));
            assertEquals("the command is stopping: no process is started after it is told to stop",
                    refused.getMessage());
            gate.stopAll(); // idempotent
        } finally {
            started.forEach(Process::destroyForcibly);
        }
    }

    @Test
    void aChildStartedWhileTheGateStopsIsEndedOrNeverStarted() throws Exception {
        for (int round = 0; round < 20; round++) {
            ChildProcesses gate = new ChildProcesses();
            List<Process> started = new ArrayList<>();
            CountDownLatch first = new CountDownLatch(1);
            Thread starter = Thread.ofPlatform().start(() -> {
                try {
                    while (true) {
                        Process p = gate.start(aSleeper());
                        started.add(p); // only this thread writes; read after join
                        first.countDown();
                    }
                } catch (IOException stopping) {
                    // the gate is stopping: the loop ends, as a command's starting thread does
                }
            });
            try {
                assertTrue(first.await(30, TimeUnit.SECONDS));
                gate.stopAll();
                starter.join(TimeUnit.SECONDS.toMillis(30));
                assertFalse(starter.isAlive(), "the starting thread was not refused");
                for (Process p : started) {
                    assertTrue(p.waitFor(30, TimeUnit.SECONDS), "round " + round + ": a child outlived stopAll");
                }
            } finally {
                starter.interrupt();
                starter.join(TimeUnit.SECONDS.toMillis(30));
                started.forEach(Process::destroyForcibly);
            }
        }
    }

    @Test
    void aChildThatCanNotStartSaysWhy() {
        ChildProcesses gate = new ChildProcesses();
        IOException e = assertThrows(IOException.class,
                () -> gate.start(new ProcessBuilder("/nonexistent/orderly-no-such-program")));
        assertTrue(e.getMessage().contains("/nonexistent/orderly-no-such-program"), e.getMessage());
        assertFalse(gate.isStopping());
    }
}
