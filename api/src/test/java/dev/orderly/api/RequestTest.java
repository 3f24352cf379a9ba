package dev.orderly.api;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link Request}: every null is rejected naming the field; the factory and the copies. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class RequestTest {

    private static final RequestPlan PLAN = new RequestPlan(0, 10, 2, 4);
    private static final Tier2Client TIER2 = job -> () -> { };
    private static final OutputStore OUTPUTS = segment -> Optional.empty();
    private static final SegmentConsumer CLIENT = (segment, output) -> { };
    private static final RequestListener LISTENER = new RequestListener() { };

    static Stream<Arguments> nullFields() {
        return Stream.of(
                nullField("id", () -> new Request(null, PLAN, TIER2, OUTPUTS, CLIENT, LISTENER)),
                nullField("plan", () -> new Request("r", null, TIER2, OUTPUTS, CLIENT, LISTENER)),
                nullField("tier2", () -> new Request("r", PLAN, null, OUTPUTS, CLIENT, LISTENER)),
                nullField("outputs", () -> new Request("r", PLAN, TIER2, null, CLIENT, LISTENER)),
                nullField("client", () -> new Request("r", PLAN, TIER2, OUTPUTS, null, LISTENER)),
                nullField("listener", () -> new Request("r", PLAN, TIER2, OUTPUTS, CLIENT, null)),
                nullField("plan", () -> Request.of(null, TIER2, OUTPUTS, CLIENT)),
                nullField("tier2", () -> Request.of(PLAN, null, OUTPUTS, CLIENT)),
                nullField("outputs", () -> Request.of(PLAN, TIER2, null, CLIENT)),
                nullField("client", () -> Request.of(PLAN, TIER2, OUTPUTS, null)),
                nullField("id", () -> Request.of(PLAN, TIER2, OUTPUTS, CLIENT).withId(null)),
                nullField("listener", () -> Request.of(PLAN, TIER2, OUTPUTS, CLIENT).withListener(null)));
    }

    private static Arguments nullField(String field, Supplier<Request> make) {
        return Arguments.of(field, make);
    }

    @ParameterizedTest(name = "null {0}")
    @MethodSource("nullFields")
    void aNullIsRejectedNamingTheField(String field, Supplier<Request> make) {
        NullPointerException e = assertThrows(NullPointerException.class, make::get);
        assertEquals(field, e.getMessage());
    }

    @ParameterizedTest(name = "id ''{0}''")
    @ValueSource(strings = {"", " ", "\t\n"})
    void aBlankIdIsRejectedShowingTheValue(String id) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new Request(id, PLAN, TIER2, OUTPUTS, CLIENT, LISTENER));
        assertEquals("id must not be blank, was '" + id + "'", e.getMessage());
    }

    @Test
    void ofGivesARandomIdAndTheNoOpListener() {
        Request a = Request.of(PLAN, TIER2, OUTPUTS, CLIENT);
        Request b = Request.of(PLAN, TIER2, OUTPUTS, CLIENT);
        assertFalse(a.id().isBlank());
        assertNotEquals(a.id(), b.id());
        assertSame(RequestListener.NONE, a.listener());
        assertSame(PLAN, a.plan());
        assertSame(TIER2, a.tier2());
        assertSame(OUTPUTS, a.outputs());
        assertSame(CLIENT, a.client());
    }

    @Test
    void withIdAndWithListenerChangeOnlyThatField() {
        Request original = Request.of(PLAN, TIER2, OUTPUTS, CLIENT);
        Request renamed = original.withId("req-7");
        assertEquals(new Request("req-7", PLAN, TIER2, OUTPUTS, CLIENT, RequestListener.NONE), renamed);
        Request listened = original.withListener(LISTENER);
        assertEquals(new Request(original.id(), PLAN, TIER2, OUTPUTS, CLIENT, LISTENER), listened);
        assertSame(RequestListener.NONE, original.listener());
    }

    @Test
    void deadlineAndResumeAreOffByDefaultAndTheCopiesKeepThem() {
        Request original = Request.of(PLAN, TIER2, OUTPUTS, CLIENT);
        assertEquals(Optional.empty(), original.deadlineIfSet());
        assertFalse(original.resume());
        Request bounded = original.withDeadline(java.time.Duration.ofSeconds(30)).withResume(true);
        assertEquals(Optional.of(java.time.Duration.ofSeconds(30)), bounded.deadlineIfSet());
        assertEquals(bounded, bounded.withId(original.id()).withListener(RequestListener.NONE));
        assertEquals(true, bounded.withId("other").resume());
    }

    @ParameterizedTest
    @ValueSource(longs = {0, -1})
    void aDeadlineThatIsNotPositiveIsRejectedNamingIt(long millis) {
        Request request = Request.of(PLAN, TIER2, OUTPUTS, CLIENT);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> request.withDeadline(java.time.Duration.ofMillis(millis)));
        assertEquals("deadline must be > 0, was " + java.time.Duration.ofMillis(millis), e.getMessage());
        assertThrows(NullPointerException.class, () -> request.withDeadline(null));
    }

    @Test
    void withIdRejectsABlankId() {
        Request request = Request.of(PLAN, TIER2, OUTPUTS, CLIENT);
        assertThrows(IllegalArgumentException.class, () -> request.withId(" "));
    }

    @Test
    void theNoOpListenerIgnoresEveryEvent() {
        Job job = new Job("r", new JobKey(0, 0), 1);
        Tier2Exception refused = Tier2Exception.refused("full");
        RequestListener none = RequestListener.NONE;
        assertDoesNotThrow(() -> {
            none.onQueued(job.key());
            none.onDial(job);
            none.onRefused(job, refused);
            none.onAdmitted(job);
            none.onFailed(job, refused);
            none.onJobDone(job);
            none.onRerun(job.key());
            none.onSegmentDelivered(0);
        });
    }
}
