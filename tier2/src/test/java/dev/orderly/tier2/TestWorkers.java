package dev.orderly.tier2;

import dev.orderly.api.Job;
import dev.orderly.grpc.JobContext;
import dev.orderly.grpc.JobWorker;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** Workers the tier2 tests load by name or through {@link java.util.ServiceLoader}. */
final class TestWorkers {

    private TestWorkers() {
    }

    /** The job's output is its work, with an update first. */
    public static final class Echo implements JobWorker.WithContext {
        @Override
        public void run(JobContext context) throws Exception {
            context.sendUpdate("started".getBytes(StandardCharsets.UTF_8));
            context.writeOutput(context.work());
        }
    }

    /** Runs until its call is cancelled: holds its slot for as long as the test wants. */
    public static final class UntilCancelled implements JobWorker {
        @Override
        public void run(Job job, byte[] work) throws InterruptedException {
            new java.util.concurrent.CountDownLatch(1).await();
        }
    }

    /** Another worker, so that two can be registered at once. */
    public static final class Other implements JobWorker {
        @Override
        public void run(Job job, byte[] work) {
        }
    }

    /** A worker whose class can not be made by name. */
    public static final class NoDefaultConstructor implements JobWorker {
        public NoDefaultConstructor(String unused) {
        }

        @Override
        public void run(Job job, byte[] work) {
        }
    }

    /** Takes {@code --greeting=TEXT} and writes it, then the work, as the output; rejects any other option. */
    public static final class Provider implements JobWorkerProvider {
        @Override
        public JobWorker create(List<String> options) {
            String greeting = "";
            for (String o : options) {
                if (o.startsWith("--greeting=")) {
                    greeting = o.substring("--greeting=".length());
                } else {
                    throw new IllegalArgumentException("unknown option '" + o + "'");
                }
            }
            byte[] prefix = greeting.getBytes(StandardCharsets.UTF_8);
            return (JobWorker.WithContext) context -> {
                byte[] out = new byte[prefix.length + context.work().length];
                System.arraycopy(prefix, 0, out, 0, prefix.length);
                System.arraycopy(context.work(), 0, out, prefix.length, context.work().length);
                context.writeOutput(out);
            };
        }
    }
}
