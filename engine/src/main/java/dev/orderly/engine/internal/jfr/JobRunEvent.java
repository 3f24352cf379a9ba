package dev.orderly.engine.internal.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Registered;
import jdk.jfr.StackTrace;

/** One admitted job on its tier2: from admission to its end. */
@Name("dev.orderly.JobRun")
@Label("Job Run")
@Category("Orderly")
@Description("An admitted job running on a tier2, from admission to its end")
@StackTrace(false)
@Registered(false)
final class JobRunEvent extends jdk.jfr.Event {

    @Label("Request")
    String requestId;

    @Label("Segment")
    long segment;

    @Label("Stage")
    int stage;

    @Label("Attempt")
    int attempt;

    @Label("Outcome")
    @Description("done, execution_timeout, retryable, fatal, refused, unreachable, abandoned, or cancelled")
    String outcome;

    @Label("Message")
    @Description("Why the job did not finish; empty when it was done")
    String message;
}
