package dev.orderly.engine.internal.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Registered;
import jdk.jfr.StackTrace;

/**
 * A job's wait for its turn to dial: from joining the launch queue, or being sent back to it by a refusal or a
 * failure, to the turn. A job that finds nothing queued, or nothing queued ahead of it and a dial slot of the window
 * free, does not wait and records no event; one that sorts ahead of every queued job while the window's slots are
 * all dialing joins at the front and waits.
 */
@Name("dev.orderly.LaunchWait")
@Label("Launch Wait")
@Category("Orderly")
@Description("A job's wait for its turn to dial, from joining the launch queue (or being sent back to it) to its turn")
@StackTrace(false)
@Registered(false)
final class LaunchWaitEvent extends jdk.jfr.Event {

    @Label("Request")
    String requestId;

    @Label("Segment")
    long segment;

    @Label("Stage")
    int stage;

    @Label("Attempt")
    @Description("The dial the job waited for, counted from 1 over the unit's life")
    int attempt;

    @Label("Cause")
    @Description("What sent the job to wait: queued, refused or failed")
    String cause;
}
