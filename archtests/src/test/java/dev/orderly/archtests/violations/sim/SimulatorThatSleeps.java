package dev.orderly.archtests.violations.sim;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** Allowed: the simulator may sleep, print, synchronize and use platform threads; only api and engine may not. */
public final class SimulatorThatSleeps {
    private final ExecutorService pool = Executors.newFixedThreadPool(2);

    public synchronized void runJob(long millis) throws InterruptedException {
        Thread.sleep(millis);
        System.out.println("job done after " + millis + " ms on " + pool);
    }
}
