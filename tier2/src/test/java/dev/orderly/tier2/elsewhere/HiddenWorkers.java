package dev.orderly.tier2.elsewhere;

import dev.orderly.api.Job;
import dev.orderly.grpc.JobWorker;

/**
 * Workers in a package other than the launcher's, for AWorkerThatCanNotBeMadeIsSaidInWordsTest: a class the launcher
 * may not reach, though its constructor is public.
 */
public final class HiddenWorkers {

    private HiddenWorkers() {
    }

    /** Not public: {@code --worker} can name it, but no one outside this package can make one. */
    static final class NotPublic implements JobWorker {
        public NotPublic() {
        }

        @Override
        public void run(Job job, byte[] work) {
        }
    }
}
