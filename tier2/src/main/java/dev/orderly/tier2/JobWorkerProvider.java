package dev.orderly.tier2;

import dev.orderly.grpc.JobWorker;
import java.util.List;

/**
 * Makes a {@link JobWorker} from command-line options, for a worker that needs some: {@link Tier2Main} hands it every
 * argument it does not know itself, as given (write them {@code --name=value}).
 *
 * <p>Registered like the worker itself (in {@code META-INF/services/dev.orderly.tier2.JobWorkerProvider}) or named with
 * {@code --worker=CLASS}; it needs a public no-argument constructor. A worker that needs no options needs no provider:
 * register the {@link JobWorker} class.
 */
@FunctionalInterface
public interface JobWorkerProvider {

    /**
     * Makes the worker this process runs.
     *
     * @param options the arguments {@code Tier2Main} did not recognise, in order; empty when there were none
     * @return the worker
     * @throws IllegalArgumentException for an unknown or bad option: its message, naming the option and the value, is
     *         the one line the process prints before it exits with 2
     * @throws Exception if the worker can not be made (the process prints it and exits with 1)
     */
    JobWorker create(List<String> options) throws Exception;
}
