package dev.orderly.engine.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.Request;
import dev.orderly.api.RequestPlan;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Client;
import dev.orderly.engine.testlog.LogCapture;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.event.Level;

/**
 * Which request scope the engine uses, and that each run of this suite used the one it asked for: the build runs the
 * suite once with {@code --enable-preview -Dorderly.scope=structured} and once with no flag and
 * {@code -Dorderly.scope=threads}, and this class alone once more with {@code --enable-preview -Dorderly.scope=auto}
 * (what the mutation profile sets unless told otherwise).
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class ScopeChoiceTest {

    private static final RequestScope.Factory FAKE = (id, scheduler, observer) -> null;

    private static boolean previewEnabled() {
        return ManagementFactory.getRuntimeMXBean().getInputArguments().contains("--enable-preview");
    }

    /** The frames of every job thread of one small request run by an engine of this JVM. */
    private static List<List<String>> jobStacks() throws Exception {
        ConcurrentLinkedQueue<List<String>> stacks = new ConcurrentLinkedQueue<>();
        Tier2Client tier2 = job -> {
            stacks.add(Arrays.stream(new Throwable().getStackTrace()).map(StackTraceElement::getClassName).toList());
            return () -> { };
        };
        RequestPlan plan = new RequestPlan(0, 3, 1, 2);
        dev.orderly.engine.InMemoryOutputStore outputs = new dev.orderly.engine.InMemoryOutputStore();
        for (long segment = 0; segment < 3; segment++) {
            outputs.write(segment, new byte[] {1});
        }
        new OrderlyEngine(EngineConfig.defaults()).run(Request.of(plan, tier2, outputs, (segment, output) -> { }));
        return List.copyOf(stacks);
    }

    @Test
    void thisRunOfTheSuiteTookTheScopeItForced() throws Exception {
        String forced = System.getProperty(RequestScopes.PROPERTY);
        // auto (the mutation profile's default) forces nothing: the scope this JVM can load, as with no property.
        boolean auto = forced == null || forced.trim().equalsIgnoreCase("auto");
        String expected = !auto ? forced : previewEnabled() ? RequestScopes.STRUCTURED : RequestScopes.THREADS;
        assertEquals(expected, RequestScopes.chosen().name());

        // Not just the choice: the jobs of a real request run on the threads of that scope.
        List<List<String>> stacks = jobStacks();
        assertEquals(3, stacks.size());
        for (List<String> frames : stacks) {
            boolean structured = frames.stream().anyMatch(c -> c.startsWith("java.util.concurrent.StructuredTaskScope"));
            boolean threads = frames.contains(ThreadsRequestScope.class.getName());
            assertEquals(expected.equals(RequestScopes.STRUCTURED), structured, "a job ran in a StructuredTaskScope");
            assertEquals(expected.equals(RequestScopes.THREADS), threads, "a job ran on ThreadsRequestScope");
        }
    }

    @Test
    void theStructuredScopeLoadsExactlyWhenPreviewFeaturesAreOn() {
        RequestScopes.Loaded loaded = RequestScopes.loadStructured();
        assertEquals(previewEnabled(), loaded.factory() != null, "loaded: " + loaded);
        if (!previewEnabled()) {
            assertTrue(loaded.whyNot().contains("UnsupportedClassVersionError"), loaded.whyNot());
        }
        RequestScopes.Choice auto = RequestScopes.choose(null, RequestScopes::loadStructured);
        assertEquals(previewEnabled() ? RequestScopes.STRUCTURED : RequestScopes.THREADS, auto.name());
    }

    @Test
    void autoFallsBackToThreadsAndSaysWhy() {
        RequestScopes.Choice choice = RequestScopes.choose(" AUTO ", () -> new RequestScopes.Loaded(null, "no 25 here"));
        assertEquals(RequestScopes.THREADS, choice.name());
        assertTrue(choice.why().contains("no 25 here"), choice.why());
        assertEquals(RequestScopes.STRUCTURED,
                RequestScopes.choose("auto", () -> new RequestScopes.Loaded(FAKE, null)).name());
    }

    @Test
    void threadsIsTakenWithoutEvenTryingTheStructuredScope() {
        RequestScopes.Choice choice = RequestScopes.choose("threads", () -> {
            throw new AssertionError("must not be loaded");
        });
        assertEquals(RequestScopes.THREADS, choice.name());
        assertNull(choice.problem());
    }

    @Test
    void forcingAStructuredScopeThisJvmCanNotLoadFailsSayingWhy() {
        RequestScopes.Choice choice = RequestScopes.choose("structured",
                () -> new RequestScopes.Loaded(null, "java.lang.UnsupportedClassVersionError: preview not enabled"));
        assertNull(choice.factory());
        IllegalStateException problem = assertInstanceOf(IllegalStateException.class, choice.problem());
        assertTrue(problem.getMessage().startsWith("-Dorderly.scope=structured asks for the StructuredTaskScope"),
                problem.getMessage());
        assertTrue(problem.getMessage().contains("preview not enabled"), problem.getMessage());
    }

    @Test
    void forcingAStructuredScopeThisJvmCanLoadTakesIt() {
        RequestScopes.Choice choice = RequestScopes.choose("structured", () -> new RequestScopes.Loaded(FAKE, null));
        assertEquals(new RequestScopes.Choice("structured", FAKE, "forced by -Dorderly.scope=structured", null), choice);
    }

    @Test
    void aScopeClassThatDoesNotLoadIsReportedWithTheReason() {
        RequestScopes.Loaded loaded = RequestScopes.load("dev.orderly.engine.internal.NoSuchRequestScope");
        assertNull(loaded.factory());
        assertEquals("java.lang.ClassNotFoundException: dev.orderly.engine.internal.NoSuchRequestScope",
                loaded.whyNot());
    }

    @Test
    void theChoiceIsLoggedAtDebugSayingWhichAndWhy() {
        RequestScopes.Choice choice = RequestScopes.choose(null, () -> new RequestScopes.Loaded(null, "no 25 here"));
        LogCapture.start();
        List<LogCapture.Event> events;
        try {
            assertSame(choice, RequestScopes.logged(choice));
        } finally {
            events = LogCapture.stop();
        }
        assertEquals(List.of(new LogCapture.Event(Level.DEBUG, RequestScopes.class.getName(),
                "request scope: threads (StructuredTaskScope does not load on this JVM: no 25 here)", Map.of(), null)),
                events);
    }

    @Test
    void anUnknownValueIsAnErrorNamingThePropertyAndTheValue() {
        RequestScopes.Choice choice = RequestScopes.choose("loom", () -> new RequestScopes.Loaded(FAKE, null));
        assertFalse(Optional.ofNullable(choice.factory()).isPresent());
        assertEquals("system property orderly.scope must be auto, structured or threads, was 'loom'",
                assertInstanceOf(IllegalArgumentException.class, choice.problem()).getMessage());
    }
}
