package dev.orderly.sim.tier2;

import dev.orderly.api.Job;
import dev.orderly.api.Tier2Exception;
import dev.orderly.engine.FileOutputStore;
import dev.orderly.grpc.JobContext;
import dev.orderly.grpc.JobWorker;
import dev.orderly.sim.fleet.Fate;
import dev.orderly.sim.fleet.SimulatedWork;
import java.nio.file.Path;
import java.util.Objects;

/**
 * The simulator's work behind a real {@link dev.orderly.grpc.Tier2Server}: each job runs for its simulated time and
 * ends as its {@link Fate} says, drawn by {@link SimulatedWork} from the same seed, durations and fault rates as the
 * in-memory fleet. A last-stage job that succeeds writes its output through its {@link JobContext}: where the tier2
 * process was told ({@code --outputs=DIR} puts request R's under {@code DIR/R/}, which {@link #outputsOf} reads).
 * The tier2 process makes it with {@link SimulatedWorkerProvider}, from the simulator's work and fault options.
 *
 * <p>Fates are keyed by the job's dial attempt rather than by its admission count (which no single process knows in a
 * fleet), so a unit meets the same faults in every run with the same seed and the same dials. Thread-safe.
 */
public final class SimulatedJobWorker implements JobWorker.WithContext {

    private final SimulatedWork work;
    private final int lastStage;

    /**
     * @param work the simulated work
     * @param stages the stages of every request; the last one writes the output
     */
    public SimulatedJobWorker(SimulatedWork work, int stages) {
        if (stages < 1) {
            throw new IllegalArgumentException("stages must be >= 1, was " + stages);
        }
        this.work = Objects.requireNonNull(work, "work");
        this.lastStage = stages - 1;
    }

    /** The store the outputs of request {@code requestId} land in, for a tier2 run with {@code --outputs=outputs}. */
    public static FileOutputStore outputsOf(Path outputs, String requestId) {
        return new FileOutputStore(outputs.resolve(requestId));
    }

    @Override
    public void run(JobContext context) throws Exception {
        Job job = context.job();
        boolean last = job.key().stage() == lastStage;
        Fate fate = work.fate(job.requestId(), job.key(), job.attempt(), last);
        work.runFor(fate);
        String where = job.key() + " of " + job.requestId();
        switch (fate.outcome()) {
            case SUCCEEDED -> {
                if (last) {
                    context.writeOutput(SimulatedWork.output(job.requestId(), job.key().segment()));
                }
            }
            case OUTPUT_MISSING -> {
                // succeeded, but the output never reaches the store: the tier1 must re-run it
            }
            case EXECUTION_TIMEOUT ->
                    throw Tier2Exception.executionTimeout(where + " ran past its deadline (simulated)");
            case RETRYABLE -> throw Tier2Exception.retryable(where + " failed (simulated stream reset)", null);
            case FATAL -> throw Tier2Exception.fatal(where + " failed (simulated fatal error: bad module)", null);
        }
    }
}
