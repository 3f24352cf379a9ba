package dev.orderly.engine.internal;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestListener;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Client;
import dev.orderly.api.Tier2Exception;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Runs one unit to the end, on the retry path of DESIGN section 5:
 *
 * <table>
 *   <caption>Outcomes of one dial</caption>
 *   <tr><th>outcome</th><th>what happens</th></tr>
 *   <tr><td>{@code dial} throws REFUSED or UNREACHABLE</td><td>{@code refused(key)}; redial after
 *       {@code refusedDelay}; not counted</td></tr>
 *   <tr><td>{@code dial} returns</td><td>{@code leave(key)} at once, then {@code await()}</td></tr>
 *   <tr><td>EXECUTION_TIMEOUT (dial or await)</td><td>counted; at {@code maxExecutionTimeouts} the request fails, else
 *       {@code failed(key)}</td></tr>
 *   <tr><td>RETRYABLE (dial or await)</td><td>counted; at {@code maxFailures} the request fails, else
 *       {@code failed(key)}</td></tr>
 *   <tr><td>FATAL, a {@code RuntimeException} from the client, anything else</td><td>the request fails</td></tr>
 *   <tr><td>{@code await()} returns</td><td>the unit is done</td></tr>
 * </table>
 *
 * <p>Every dial, the first and each retry, first waits its turn at the {@link DialGate}. A REFUSED or UNREACHABLE
 * thrown by {@code await()} (a tier2 that admitted the job and then says nothing ran) is treated as a refusal, as its
 * {@link Tier2Exception#neverRan()} says.
 *
 * <p>On every path out, including interruption, the job leaves the gate and its {@link Tier2Call} is closed.
 * Thread-safe: the per-job counts live on the calling thread's stack; one instance serves all jobs of a request.
 */
final class JobRunner {

    private static final Logger LOG = LoggerFactory.getLogger(JobRunner.class);

    private final String requestId;
    private final Tier2Client tier2;
    private final DialGate gate;
    private final EngineConfig config;
    private final RequestCounters counters;
    private final RequestListener listener;

    JobRunner(String requestId, Tier2Client tier2, DialGate gate, EngineConfig config, RequestCounters counters,
            RequestListener listener) {
        this.requestId = requestId;
        this.tier2 = tier2;
        this.gate = gate;
        this.config = config;
        this.counters = counters;
        this.listener = listener;
    }

    /** The state of one job across its dials. Lives on the job's own thread only. */
    private static final class Attempts {
        int dials;
        int failures;
        int timeouts;
    }

    /**
     * Runs the unit of {@code key} until it is done.
     *
     * @throws RequestFailedException when the unit failed for good; the request must fail with it
     * @throws InterruptedException when the request was cancelled
     */
    void run(JobKey key) throws RequestFailedException, InterruptedException {
        MDC.put("request", requestId);
        MDC.put("segment", Long.toString(key.segment()));
        MDC.put("stage", Integer.toString(key.stage()));
        try {
            Attempts attempts = new Attempts();
            while (!attempt(key, attempts)) {
                // the job was refused or failed and may be retried: go round for another turn
            }
        } finally {
            gate.leave(key);
            MDC.remove("request");
            MDC.remove("segment");
            MDC.remove("stage");
        }
    }

    /** One turn and one dial. Returns true when the unit is done, false when the job should dial again. */
    private boolean attempt(JobKey key, Attempts attempts) throws RequestFailedException, InterruptedException {
        gate.awaitTurn(key);
        Job job = new Job(requestId, key, ++attempts.dials);
        counters.dial();
        listener.onDial(job);
        LOG.debug("dial {} attempt {}", key, job.attempt());
        Tier2Call call;
        try {
            call = tier2.dial(job);
        } catch (Tier2Exception e) {
            return retryOrFail(job, e, attempts);
        } catch (RuntimeException e) {
            return retryOrFail(job, asFatal(e), attempts);
        }
        try {
            gate.leave(key);
            counters.admission();
            listener.onAdmitted(job);
            call.await();
        } catch (Tier2Exception e) {
            return retryOrFail(job, e, attempts);
        } catch (RuntimeException e) {
            return retryOrFail(job, asFatal(e), attempts);
        } finally {
            close(call, key);
        }
        listener.onJobDone(job);
        LOG.info("{} done after {} dial(s)", key, job.attempt());
        return true;
    }

    /** Applies the retry table to one error: returns false to dial again, or throws to fail the request. */
    private boolean retryOrFail(Job job, Tier2Exception e, Attempts attempts) throws RequestFailedException {
        JobKey key = job.key();
        switch (e.kind()) {
            case REFUSED, UNREACHABLE -> {
                counters.refusal();
                listener.onRefused(job, e);
                LOG.debug("{} refused on attempt {}: {}", key, job.attempt(), e.getMessage());
                gate.refused(key);
                return false;
            }
            case EXECUTION_TIMEOUT -> {
                counters.executionTimeout();
                attempts.timeouts++;
                listener.onFailed(job, e);
                LOG.warn("{} timed out on attempt {} ({} of {}): {}", key, job.attempt(), attempts.timeouts,
                        config.maxExecutionTimeouts(), e.getMessage());
                if (attempts.timeouts >= config.maxExecutionTimeouts()) {
                    throw new RequestFailedException(key, key + " timed out " + attempts.timeouts
                            + " times, giving up: " + e.getMessage(), e);
                }
                gate.failed(key);
                return false;
            }
            case RETRYABLE -> {
                counters.failure();
                attempts.failures++;
                listener.onFailed(job, e);
                LOG.warn("{} failed on attempt {} ({} of {}): {}", key, job.attempt(), attempts.failures,
                        config.maxFailures(), e.getMessage());
                if (attempts.failures >= config.maxFailures()) {
                    throw new RequestFailedException(key, key + " failed " + attempts.failures
                            + " times, giving up: " + e.getMessage(), e);
                }
                gate.failed(key);
                return false;
            }
            case FATAL -> {
                listener.onFailed(job, e);
                LOG.warn("{} failed fatally on attempt {}: {}", key, job.attempt(), e.getMessage());
                throw new RequestFailedException(key, key + " failed fatally on attempt " + job.attempt()
                        + ", giving up: " + e.getMessage(), e);
            }
            default -> throw new IllegalStateException("unknown kind " + e.kind(), e);
        }
    }

    private static Tier2Exception asFatal(RuntimeException e) {
        return Tier2Exception.fatal("tier2 client threw " + e, e);
    }

    private static void close(Tier2Call call, JobKey key) {
        try {
            call.close();
        } catch (RuntimeException e) {
            // The job's outcome is already decided; a call that can not let go must not change it.
            LOG.warn("closing the tier2 call of {} threw; ignored", key, e);
        }
    }
}
