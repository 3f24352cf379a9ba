package dev.orderly.engine.internal.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Registered;
import jdk.jfr.StackTrace;

/**
 * A segment handed to the client. Its duration is the client's wait for it: from the previous segment's delivery
 * (for the first segment, from the start of the request) to this one's.
 */
@Name("dev.orderly.SegmentDelivered")
@Label("Segment Delivered")
@Category("Orderly")
@Description("A segment handed to the client; the duration runs from the previous delivery (or the request's start)")
@StackTrace(false)
@Registered(false)
final class SegmentDeliveredEvent extends jdk.jfr.Event {

    @Label("Request")
    String requestId;

    @Label("Segment")
    long segment;
}
