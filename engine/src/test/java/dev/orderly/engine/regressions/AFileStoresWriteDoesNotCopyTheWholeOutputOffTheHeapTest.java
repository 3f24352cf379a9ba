package dev.orderly.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.OutputStore;
import dev.orderly.engine.FileOutputStore;
import java.io.File;
import java.lang.management.ManagementFactory;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Regression of 3128975: {@link FileOutputStore#write} hands the whole output to one {@code FileChannel.write} of a
 * heap buffer, which the JDK copies into a temporary native buffer of the output's size (not counted against
 * {@code -XX:MaxDirectMemorySize}) and then keeps in the writing thread's buffer cache until that thread ends. A
 * tier2 writing 128 MiB outputs from 16 pool threads holds 2 GiB of native memory beyond its heap, for good; a
 * container's memory limit kills it. {@code Files.write}, before, wrote in 8 KiB pieces. Measured in a child JVM
 * with native memory tracking: the "Other" category (where those buffers go) after one write of 128 MiB.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class AFileStoresWriteDoesNotCopyTheWholeOutputOffTheHeapTest {

    private static final int OUTPUT_MIB = 128;

    @Test
    void aLargeOutputLeavesNoNativeCopyOfItsSize(@TempDir Path dir) throws Exception {
        String java = ProcessHandle.current().info().command().orElseThrow();
        String classPath = Stream.of(Child.class, FileOutputStore.class, OutputStore.class)
                .map(AFileStoresWriteDoesNotCopyTheWholeOutputOffTheHeapTest::where).distinct()
                .collect(Collectors.joining(File.pathSeparator));
        Path output = dir.resolve("child.out");
        List<String> command = List.of(java, "-Xmx512m", "-XX:NativeMemoryTracking=summary", "-cp", classPath,
                Child.class.getName(), dir.resolve("store").toString());
        Process child = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
        try {
            assertTrue(child.waitFor(100, TimeUnit.SECONDS), "the child did not end");
            List<String> lines = Files.readAllLines(output, StandardCharsets.UTF_8);
            assertEquals(0, child.exitValue(), String.join("\n", lines));
            long otherKib = lines.stream().map(OTHER::matcher).filter(Matcher::find)
                    .mapToLong(m -> Long.parseLong(m.group(1))).findFirst().orElseThrow(() ->
                            new AssertionError("no Other line: " + String.join("\n", lines)));
            assertTrue(otherKib < OUTPUT_MIB * 1024 / 4, "native memory (NMT Other) held after writing a "
                    + OUTPUT_MIB + " MiB output: " + otherKib + " KiB");
        } finally {
            child.destroyForcibly();
            child.waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static final Pattern OTHER = Pattern.compile("Other \\(reserved=\\d+KB, committed=(\\d+)KB\\)");

    private static String where(Class<?> c) {
        try {
            return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Writes one output of {@link #OUTPUT_MIB} MiB on its main thread, then prints NMT's summary. */
    public static final class Child {
        public static void main(String[] args) throws Exception {
            FileOutputStore store = new FileOutputStore(Path.of(args[0]));
            store.write(0, new byte[OUTPUT_MIB << 20]);
            System.out.println("written " + Files.size(store.pathOf(0)));
            System.out.println(ManagementFactory.getPlatformMBeanServer().invoke(
                    new ObjectName("com.sun.management:type=DiagnosticCommand"), "vmNativeMemory",
                    new Object[] {new String[] {"summary"}}, new String[] {String[].class.getName()}));
        }
    }
}
