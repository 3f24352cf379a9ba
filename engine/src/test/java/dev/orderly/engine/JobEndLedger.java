package dev.orderly.engine;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestListener;
import dev.orderly.api.RequestResult;
import dev.orderly.api.Tier2Exception;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A listener that checks the rule a metrics listener counting running jobs relies on: every {@code onAdmitted} is
 * followed by exactly one of {@code onJobDone}, {@code onFailed} and {@code onAbandoned} for the same job (or
 * {@code onRefused}, when a tier2 that took the job then says nothing ran). One live job per unit, so a unit has at
 * most one open admission; {@code onAbandoned} names only the unit, and closes its open admission if it has one (a
 * job abandoned before it was admitted is fine). It also keeps the figures the request-end event was given.
 * Thread-safe. A test may subclass it to hear other events too.
 */
public class JobEndLedger implements RequestListener {

    private final Map<JobKey, Job> open = new ConcurrentHashMap<>();
    private final List<String> violations = new CopyOnWriteArrayList<>();
    private final List<RequestResult> ends = new CopyOnWriteArrayList<>();

    @Override
    public void onAdmitted(Job job) {
        Job before = open.put(job.key(), job);
        if (before != null) {
            violations.add(job + " admitted while " + before + " had not ended");
        }
    }

    @Override
    public void onJobDone(Job job) {
        if (!open.remove(job.key(), job)) {
            violations.add(job + " done without an open admission");
        }
    }

    @Override
    public void onFailed(Job job, Tier2Exception cause) {
        // A failed dial was never admitted: only an admitted job's failure closes its admission.
        open.remove(job.key(), job);
    }

    @Override
    public void onRefused(Job job, Tier2Exception cause) {
        // Refused at the dial: never admitted. Refused by await: the tier2 took it and then said nothing ran.
        open.remove(job.key(), job);
    }

    @Override
    public void onAbandoned(JobKey key) {
        open.remove(key);
    }

    @Override
    public void onRequestDone(RequestResult result) {
        ends.add(result);
    }

    @Override
    public void onRequestFailed(RequestResult soFar, RequestFailedException failure) {
        ends.add(soFar);
    }

    @Override
    public void onRequestCancelled(RequestResult soFar) {
        ends.add(soFar);
    }

    /** The figures each request-end event was given, in order: exactly one per request run. */
    public List<RequestResult> ends() {
        return ends;
    }

    /** Admitted jobs with no end event yet, and the events that broke the rule. Empty when the rule held. */
    public List<String> violations() {
        List<String> all = new java.util.ArrayList<>(violations);
        open.values().forEach(job -> all.add(job + " admitted and never ended"));
        return all;
    }
}
