package dev.orderly.bench.cost;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The machine's load average, as {@code /proc/loadavg} gives it (1, 5, 15 minutes), or "unknown". */
final class LoadAverage {

    private LoadAverage() {
    }

    static String now() {
        try {
            String[] fields = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return fields[0] + " " + fields[1] + " " + fields[2];
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }
}
