package dev.orderly.grpc;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
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
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server side of {@code orderly.tier2.v1.Tier2/ProcessRange}: checks the request, takes a slot or refuses, and
 * starts the admitted job ({@link ServerJob}).
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

    private final JobWorker worker;
    private final JobOutputs outputs;
    private final AdmissionLimit slots;
    private final Set<ServerJob> running;
    private final ScheduledExecutorService timer;
    private final Duration executionTimeout;
    private final String instanceName;

    /** @param outputs where the jobs' {@link JobContext#writeOutput} writes; null when the server has none */
    Tier2Service(JobWorker worker, JobOutputs outputs, AdmissionLimit slots, Set<ServerJob> running,
                 ScheduledExecutorService timer, Duration executionTimeout, String instanceName) {
        this.worker = worker;
        this.outputs = outputs;
        this.slots = slots;
        this.running = running;
        this.timer = timer;
        this.executionTimeout = executionTimeout;
        this.instanceName = instanceName;
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
        try {
            request = ProcessRangeRequest.parseFrom(bytes);
            job = new Job(request.getRequestId(), new JobKey(request.getSegment(), request.getStage()),
                    request.getAttempt());
        } catch (InvalidProtocolBufferException | IllegalArgumentException | NullPointerException e) {
            LOG.warn("malformed ProcessRange request ({} bytes) turned away: {}", bytes.length, e.getMessage());
            responses.onError(Status.INVALID_ARGUMENT.withDescription("malformed ProcessRangeRequest: "
                    + e.getMessage()).asRuntimeException());
            return;
        }
        switch (slots.tryAcquire()) {
            case FULL -> {
                responses.onError(Status.RESOURCE_EXHAUSTED.withDescription(Tier2Protocol.OVERLOADED)
                        .asRuntimeException());
                return;
            }
            case DRAINING -> {
                responses.onError(Status.UNAVAILABLE.withDescription("tier2 draining").asRuntimeException());
                return;
            }
            case ADMITTED -> {
                // run it, below
            }
        }
        ServerJob serverJob = new ServerJob(job, request.getWork().toByteArray(), worker, outputs, responses,
                slots, running::remove);
        running.add(serverJob);
        serverJob.start(instanceName, timer, executionTimeout);
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
