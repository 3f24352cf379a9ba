package dev.orderly.examples.tier2;

import dev.orderly.grpc.JobContext;
import dev.orderly.grpc.JobWorker;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * A job worker: the output of a job is its work, in upper case. Registered in
 * {@code META-INF/services/dev.orderly.grpc.JobWorker}, so {@code Tier2Main} runs it with no {@code --worker}.
 */
public final class UppercaseWorker implements JobWorker.WithContext {

    @Override
    public void run(JobContext job) throws Exception {
        job.sendUpdate("started".getBytes(StandardCharsets.UTF_8)); // progress, passed to the tier1 as it is
        String work = new String(job.work(), StandardCharsets.UTF_8);
        job.writeOutput(work.toUpperCase(Locale.ROOT).getBytes(StandardCharsets.UTF_8)); // where --outputs says
    }
}
