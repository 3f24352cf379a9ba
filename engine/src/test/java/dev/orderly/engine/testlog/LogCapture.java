package dev.orderly.engine.testlog;

import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.slf4j.MDC;
import org.slf4j.event.Level;
import org.slf4j.helpers.MessageFormatter;

/**
 * Collects log events, with a copy of the MDC each was logged under, between {@link #start()} and {@link #stop()}.
 * One capture at a time (the engine's tests run one test class at a time). Thread-safe.
 */
public final class LogCapture {

    /** One log line; {@code thrown} is the throwable logged with it, or null. */
    public record Event(Level level, String logger, String message, Map<String, String> mdc, Throwable thrown) {
    }

    private static volatile Queue<Event> events;

    private LogCapture() {
    }

    /** Starts collecting, dropping whatever an earlier capture left. */
    public static void start() {
        events = new ConcurrentLinkedQueue<>();
    }

    /** Stops collecting and returns what was logged since {@link #start()}. */
    public static List<Event> stop() {
        Queue<Event> captured = events;
        events = null;
        return captured == null ? List.of() : List.copyOf(captured);
    }

    /** What was logged since {@link #start()} so far, while collecting goes on. */
    public static List<Event> snapshot() {
        Queue<Event> captured = events;
        return captured == null ? List.of() : List.copyOf(captured);
    }

    static boolean capturing() {
        return events != null;
    }

    static void log(Level level, String logger, String pattern, Object[] arguments, Throwable throwable) {
        String message = MessageFormatter.basicArrayFormat(pattern, arguments);
        Queue<Event> captured = events;
        if (captured != null) {
            Map<String, String> mdc = MDC.getCopyOfContextMap();
            captured.add(new Event(level, logger, message, mdc == null ? Map.of() : Map.copyOf(mdc), throwable));
        }
        if (level == Level.ERROR) {
            System.err.println("ERROR " + logger + " - " + message);
            if (throwable != null) {
                throwable.printStackTrace();
            }
        }
    }
}
