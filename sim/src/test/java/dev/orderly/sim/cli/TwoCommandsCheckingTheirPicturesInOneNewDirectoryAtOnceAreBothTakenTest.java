package dev.orderly.sim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
 * Regression: two commands started at once in one directory ({@code orderly} and {@code orderly sweep} in two
 * terminals, or two runs of a script) both check their picture in the default {@code orderly-out/} before it exists.
 * The check made the directory, made and removed the file, and removed the directory: the other command's check then
 * found the directory made under it ({@code FileAlreadyExistsException}), removed before its file
 * ({@code NoSuchFileException}), or not empty when it removed its own ({@code DirectoryNotEmptyException}), and the
 * command refused a path it could write, exit 2. Every round here checks two files in one new directory at once.
 */
@Timeout(120)
class TwoCommandsCheckingTheirPicturesInOneNewDirectoryAtOnceAreBothTakenTest {

    @TempDir
    Path dir;

    @Test
    void bothChecksPass() throws Exception {
        List<String> refused = new ArrayList<>();
        ExecutorService two = Executors.newFixedThreadPool(2);
        try {
            for (int round = 0; round < 2000; round++) {
                Path out = dir.resolve("r" + round).resolve("orderly-out");
                CyclicBarrier go = new CyclicBarrier(2);
                List<Future<String>> checks = new ArrayList<>();
                for (String file : List.of("timeline.svg", "sweep.svg")) {
                    checks.add(two.submit(() -> {
                        go.await(10, TimeUnit.SECONDS);
                        try {
                            OutputPath.tryCreate(out.resolve(file));
                            return null;
                        } catch (java.io.IOException e) {
                            return e.toString();
                        }
                    }));
                }
                for (Future<String> check : checks) {
                    String why = check.get(10, TimeUnit.SECONDS);
                    if (why != null) {
                        refused.add(why);
                    }
                }
            }
        } finally {
            two.shutdownNow();
            two.awaitTermination(10, TimeUnit.SECONDS);
        }
        assertEquals(List.of(), refused.subList(0, Math.min(5, refused.size())),
                refused.size() + " of 4000 checks refused a path that can be written");
    }
}
