package dev.orderly.engine.internal.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Registered;
import jdk.jfr.StackTrace;

/** One dial: from handing the job to a tier2 to its answer. */
@Name("dev.orderly.Dial")
@Label("Dial")
@Category("Orderly")
@Description("One attempt to hand a job to a tier2, and how it came out")
@StackTrace(false)
@Registered(false)
final class DialEvent extends jdk.jfr.Event {

    @Label("Request")
    String requestId;

    @Label("Segment")
    long segment;

    @Label("Stage")
    int stage;

    @Label("Attempt")
    int attempt;

    @Label("Outcome")
    @Description("admitted, refused, unreachable, execution_timeout, retryable, fatal, or cancelled")
    String outcome;

    @Label("Message")
    @Description("Why the dial was not admitted; empty when it was")
    String message;
}
