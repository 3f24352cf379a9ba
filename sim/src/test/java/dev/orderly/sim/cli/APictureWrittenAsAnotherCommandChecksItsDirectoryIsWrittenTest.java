package dev.orderly.sim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.orderly.api.JobKey;
import dev.orderly.sim.fleet.TimeScale;
import dev.orderly.sim.report.TimelineSvg;
import dev.orderly.sim.run.JobTrace;
import dev.orderly.sim.run.Strategy;
import dev.orderly.sim.run.TenantRecord;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Regression: a command that writes its picture at the end of its run, in the default {@code orderly-out/} that its
 * own check at the start made and removed again, while a second command started in the same directory checks its
 * own picture there. The writer found {@code orderly-out/} made by the other command's check, which then removed it,
 * empty, before the writer's file was in it: "cannot write the picture to ...: no such file or directory", exit 1
 * after a whole run. Every round here writes a picture and checks another in one new directory at once.
 */
@Timeout(120)
class APictureWrittenAsAnotherCommandChecksItsDirectoryIsWrittenTest {

    @TempDir
    Path dir;

    @Test
    void thePictureIsWritten() throws Exception {
        TimelineSvg picture = picture();
        List<String> failed = new ArrayList<>();
        int rounds = 1000;
        ExecutorService two = Executors.newFixedThreadPool(2);
        try {
            for (int round = 0; round < rounds; round++) {
                Path out = dir.resolve("r" + round).resolve("orderly-out");
                CyclicBarrier go = new CyclicBarrier(2);
                Future<String> write = two.submit(() -> {
                    go.await(10, TimeUnit.SECONDS);
                    try {
                        picture.write(out.resolve("timeline.svg"));
                        return null;
                    } catch (IOException e) {
                        return "write: " + e;
                    }
                });
                Future<String> check = two.submit(() -> {
                    go.await(10, TimeUnit.SECONDS);
                    try {
                        OutputPath.tryCreate(out.resolve("sweep.svg"));
                        return null;
                    } catch (IOException e) {
                        return "check: " + e;
                    }
                });
                for (Future<String> f : List.of(write, check)) {
                    String why = f.get(10, TimeUnit.SECONDS);
                    if (why != null) {
                        failed.add(why);
                    }
                }
            }
        } finally {
            two.shutdownNow();
            two.awaitTermination(10, TimeUnit.SECONDS);
        }
        assertEquals(List.of(), failed.subList(0, Math.min(5, failed.size())),
                failed.size() + " of " + rounds + " rounds failed to write a picture or to check a path that can be"
                        + " written");
    }

    private static TimelineSvg picture() {
        long ms = 1_000_000L;
        long[] ready = {20 * ms};
        List<JobTrace> jobs = List.of(new JobTrace(new JobKey(0, 0), -1, 0, 0, 20 * ms, JobTrace.Ending.DONE, 1));
        TenantRecord tenant = new TenantRecord("tenant-1", Strategy.ORDERED, jobs, ready.clone(), ready.clone(), 1,
                0, 1, 0, 1, 0, 0, 0, 0);
        return new TimelineSvg("one job", List.of(new TimelineSvg.Panel("ordered: tenant-1 of 1", tenant)), 1,
                TimeScale.REAL_TIME);
    }
}
