package dev.orderly.sim.fleet;

/**
 * The probability of each injected fault. {@code unreachable} is drawn per dial (no tier2 could be reached, nothing
 * ran); the others are drawn per admission and are exclusive: an admitted job ends in at most one of
 * {@code executionTimeout}, {@code retryable}, {@code fatal} or {@code outputMissing} (the job succeeds but its
 * output never reaches the store).
 *
 * @param unreachable per dial, 0..1
 * @param executionTimeout per admission, 0..1
 * @param retryable per admission, 0..1
 * @param fatal per admission, 0..1
 * @param outputMissing per admission of a last-stage job, 0..1
 */
public record FaultRates(double unreachable, double executionTimeout, double retryable, double fatal,
                         double outputMissing) {

    /** No faults at all. */
    public static final FaultRates NONE = new FaultRates(0, 0, 0, 0, 0);

    /**
     * @throws IllegalArgumentException naming the rate when one is outside 0..1, or when the per-admission rates add
     *     up to more than 1
     */
    public FaultRates {
        check("unreachable rate", unreachable);
        check("execution-timeout rate", executionTimeout);
        check("retryable rate", retryable);
        check("fatal rate", fatal);
        check("output-missing rate", outputMissing);
        double sum = executionTimeout + retryable + fatal + outputMissing;
        if (sum > 1.0 + 1e-9) {
            throw new IllegalArgumentException("the per-admission fault rates (execution-timeout + retryable + fatal"
                    + " + output-missing) must add up to at most 1, was " + sum);
        }
    }

    private static void check(String name, double rate) {
        if (!(rate >= 0 && rate <= 1)) {
            throw new IllegalArgumentException(name + " must be between 0 and 1, was " + rate);
        }
    }
}
