package dev.orderly.stress.runner;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs jcstress with the given arguments and exits non-zero unless {@link JcstressSummary} finds the run green.
 *
 * <p>jcstress runs in this JVM (its tests run in the JVMs it forks); everything it prints goes to the console as
 * usual and is also kept to be read once it is done. jcstress exits 0 when no test matched or when it dropped a test
 * it could not schedule, so its exit status alone proves nothing; the summary does.
 */
public final class JcstressGate {

    private JcstressGate() {
    }

    /** Arguments are jcstress's own, e.g. {@code -m sanity -t dev\.orderly\.stress\..*}. */
    public static void main(String[] args) throws Exception {
        PrintStream console = System.out;
        ByteArrayOutputStream copy = new ByteArrayOutputStream();
        PrintStream tee = new PrintStream(new Tee(console, copy), true, StandardCharsets.UTF_8);
        System.setOut(tee);
        Throwable thrown = null;
        try {
            org.openjdk.jcstress.Main.main(args);
        } catch (Throwable t) {
            // jcstress 0.16 ends a run with failed or erroneous tests by throwing an AssertionError that lists them;
            // the summary says more, so read it as well.
            thrown = t;
        } finally {
            tee.flush();
            System.setOut(console);
        }
        List<String> problems = new ArrayList<>(JcstressSummary.problems(copy.toString(StandardCharsets.UTF_8)));
        if (thrown != null) {
            System.err.println("jcstress threw:");
            thrown.printStackTrace();
            problems.add("jcstress threw " + thrown.getClass().getName() + " (see above)");
        }
        if (problems.isEmpty()) {
            console.println("jcstress gate: PASSED (every planned test run passed; no failure, no error, none dropped)");
            console.flush();
            System.exit(0);
        }
        System.err.println("jcstress gate: FAILED");
        for (String problem : problems) {
            System.err.println("  - " + problem);
        }
        System.err.println("  See the console output above and the HTML report in the results directory (-r).");
        System.err.flush();
        System.exit(1);
    }

    /** Writes every byte to two streams. */
    private static final class Tee extends OutputStream {
        private final OutputStream first;
        private final OutputStream second;

        Tee(OutputStream first, OutputStream second) {
            this.first = first;
            this.second = second;
        }

        @Override
        public void write(int b) throws java.io.IOException {
            first.write(b);
            second.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws java.io.IOException {
            first.write(b, off, len);
            second.write(b, off, len);
        }

        @Override
        public void flush() throws java.io.IOException {
            first.flush();
            second.flush();
        }
    }
}
