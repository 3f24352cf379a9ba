package dev.orderly.grpc;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.grpc.proto.Priority;
import dev.orderly.grpc.proto.ProcessRangeRequest;
import dev.orderly.grpc.proto.ProcessRangeResponse;
import io.grpc.MethodDescriptor;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.protobuf.ProtoUtils;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server side of {@code orderly.tier2.v1.Tier2/ProcessRange}: checks the request and hands it to a
 * {@link ServerDial}, which takes a slot, waits in the room or is refused, and starts the admitted job
 * ({@link ServerJob}).
 *
 * <p>The request arrives as raw bytes and is parsed here, not by gRPC's marshaller: a request that does not parse,
 * or names a negative segment or stage, is {@code INVALID_ARGUMENT} with one WARN line, where a failing marshaller
 * would close the call {@code UNKNOWN} and log a stack trace per call. This class is thread-safe.
 */
final class Tier2Service {

    private static final Logger LOG = LoggerFactory.getLogger(Tier2Service.class);

    /** ProcessRange with the request left as bytes (the wire format is the same). */
    private static final MethodDescriptor<byte[], ProcessRangeResponse> PROCESS_RANGE_RAW =
            Tier2Protocol.PROCESS_RANGE.toBuilder(new RawBytes(),
                    ProtoUtils.marshaller(ProcessRangeResponse.getDefaultInstance())).build();

    private final AdmissionLimit slots;
    private final ServerDial.Runner runner;

    /** @param outputs where the jobs' {@link JobContext#writeOutput} writes; null when the server has none */
    Tier2Service(JobWorker worker, JobOutputs outputs, AdmissionLimit slots, RunningJobs running,
                 ScheduledExecutorService timer, Duration executionTimeout, String instanceName, int maxMessageSize) {
        this.slots = slots;
        this.runner = new ServerDial.Runner(worker, outputs, running, timer, executionTimeout, instanceName,
                maxMessageSize);
    }

    ServerServiceDefinition definition() {
        return ServerServiceDefinition.builder(Tier2Protocol.SERVICE_NAME)
                .addMethod(PROCESS_RANGE_RAW, ServerCalls.asyncServerStreamingCall(this::processRange))
                .build();
    }

    private void processRange(byte[] bytes, StreamObserver<ProcessRangeResponse> observer) {
        ServerCallStreamObserver<ProcessRangeResponse> responses =
                (ServerCallStreamObserver<ProcessRangeResponse>) observer;
        ProcessRangeRequest request;
        Job job;
        Priority priority;
        try {
            request = ProcessRangeRequest.parseFrom(bytes);
            priority = request.getPriority(); // absent (an older client): rank 0, no wait
            if (priority.getRank() < 0) {
                throw new IllegalArgumentException("priority.rank must be >= 0, was " + priority.getRank());
            }
            if (priority.getMaxWaitMs() < 0) {
                throw new IllegalArgumentException("priority.max_wait_ms must be >= 0, was "
                        + priority.getMaxWaitMs());
            }
            if (request.getStages() < 0) {
                throw new IllegalArgumentException("stages must be >= 0, was " + request.getStages());
            }
            if (request.getStages() > 0 && request.getStage() >= request.getStages()) {
                // no last stage to tell apart: the job's own stage is past it
                throw new IllegalArgumentException("stage must be below stages " + request.getStages() + ", was "
                        + request.getStage());
            }
            JobKey key = new JobKey(request.getSegment(), request.getStage());
            // a rank past the segment says more than the job can mean; the room still weighs it as sent
            long reading = Math.max(0, key.segment() - priority.getRank());
            job = new Job(request.getRequestId(), key, request.getAttempt(), reading, request.getStages());
        } catch (InvalidProtocolBufferException | IllegalArgumentException | NullPointerException e) {
            LOG.warn("malformed ProcessRange request ({} bytes) turned away: {}", bytes.length, e.getMessage());
            responses.onError(Status.INVALID_ARGUMENT.withDescription("malformed ProcessRangeRequest: "
                    + e.getMessage()).asRuntimeException());
            return;
        }
        String tenant = priority.getTenant().isEmpty() ? request.getRequestId() : priority.getTenant();
        new ServerDial(job, request.getWork().toByteArray(), responses, slots, runner)
                .arrive(tenant, priority.getRank(), priority.getMaxWaitMs());
    }

    /** The request's bytes as they came (also what tests send to play a broken client). */
    static final class RawBytes implements MethodDescriptor.Marshaller<byte[]> {
        @Override
        public InputStream stream(byte[] value) {
            return new ByteArrayInputStream(value);
        }

        @Override
        public byte[] parse(InputStream stream) {
            try {
                return stream.readAllBytes();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
