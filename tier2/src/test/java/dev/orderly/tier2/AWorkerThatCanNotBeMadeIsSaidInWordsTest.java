package dev.orderly.tier2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.grpc.JobWorker;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Regression: a {@code --worker} class the launcher could not make was said in Java's words, or with no word of the
 * worker at all:
 * <ul>
 *   <li>an abstract class: {@code --worker=X can not be made: java.lang.InstantiationException};
 *   <li>a class that is not public: {@code --worker=X can not be made: java.lang.IllegalAccessException: class
 *       dev.orderly.tier2.WorkerLoader cannot access a member of class X with modifiers "public"};
 *   <li>a provider whose {@code create} returned null: {@code tier2: java.lang.IllegalStateException: X.create
 *       returned no worker}, exit 1, the launcher's own sentence behind a Java class name;
 *   <li>a provider whose {@code create} threw an exception: {@code tier2: java.io.IOException: disk gone}, which does
 *       not say that the worker could not be made (an {@link Error} there already said "can not make the worker").
 * </ul>
 */
@Timeout(30)
class AWorkerThatCanNotBeMadeIsSaidInWordsTest {

    @TempDir
    Path dir;

    /** Abstract, with a public no-argument constructor: there is no instance to make. */
    public abstract static class Abstract implements JobWorker {
        public Abstract() {
        }
    }

    /** A provider that makes nothing. */
    public static final class ReturnsNull implements JobWorkerProvider {
        @Override
        public JobWorker create(List<String> options) {
            return null;
        }
    }

    /** A provider whose set-up fails. */
    public static final class Throws implements JobWorkerProvider {
        @Override
        public JobWorker create(List<String> options) throws IOException {
            throw new IOException("disk gone");
        }
    }

    private record Said(int code, String line) {
    }

    private Said run(String worker) {
        StringWriter err = new StringWriter();
        int code = Tier2Main.execute(new String[] {"--outputs=" + dir.resolve("out"), "--worker=" + worker},
                new PrintWriter(new StringWriter(), true), new PrintWriter(err, true));
        String line = err.toString().strip();
        assertEquals(1, line.lines().count(), line);
        return new Said(code, line);
    }

    private static void noJava(String line) {
        assertFalse(line.contains("java.lang") || line.contains("Exception"), line);
    }

    @Test
    void anAbstractClassIsSaidToBeAbstract() {
        Said s = run(Abstract.class.getName());
        assertEquals(2, s.code(), s.line());
        assertTrue(s.line().startsWith("tier2: --worker=" + Abstract.class.getName() + " is abstract"), s.line());
        noJava(s.line());
    }

    @Test
    void aClassThatIsNotPublicIsSaidToBeNotPublic() {
        String name = "dev.orderly.tier2.elsewhere.HiddenWorkers$NotPublic";
        Said s = run(name);
        assertEquals(2, s.code(), s.line());
        assertTrue(s.line().startsWith("tier2: --worker=" + name + " is not public"), s.line());
        noJava(s.line());
    }

    @Test
    void aProviderThatReturnsNoWorkerIsSaidInTheLaunchersWords() {
        Said s = run(ReturnsNull.class.getName());
        assertEquals(2, s.code(), s.line());
        assertEquals("tier2: " + ReturnsNull.class.getName() + ".create returned no worker (see --help)", s.line());
    }

    @Test
    void aProviderThatThrowsIsSaidToHaveFailedToMakeTheWorker() {
        Said s = run(Throws.class.getName());
        assertEquals(1, s.code(), s.line());
        assertTrue(s.line().startsWith("tier2: can not make the worker: ") && s.line().endsWith("disk gone"),
                s.line());
    }
}
