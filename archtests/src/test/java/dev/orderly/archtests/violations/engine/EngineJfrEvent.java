package dev.orderly.archtests.violations.engine;

import jdk.jfr.Category;
import jdk.jfr.Event;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/** Good: the engine may record JFR events; {@code jdk.jfr} is part of the JDK. */
@Name("dev.orderly.archtests.Example")
@Category("Orderly")
@StackTrace(false)
public final class EngineJfrEvent extends Event {
    long segment;

    public static void record(long segment) {
        EngineJfrEvent event = new EngineJfrEvent();
        if (event.shouldCommit()) {
            event.segment = segment;
            event.commit();
        }
    }
}
