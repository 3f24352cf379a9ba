package dev.orderly.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.api.Job;
import dev.orderly.api.JobKey;
import dev.orderly.api.Tier2Call;
import dev.orderly.api.Tier2Exception;
import dev.orderly.api.Tier2Exception.Kind;
import dev.orderly.grpc.proto.Admitted;
import dev.orderly.grpc.proto.Completed;
import dev.orderly.grpc.proto.Failed;
import dev.orderly.grpc.proto.ProcessRangeResponse;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.ServerCalls;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every row of the client's status mapping, against a scripted tier2 in-process: what the tier2 sends (an optional
 * {@code Admitted}, then a status or a last message), and which kind the client reports, from {@code dial} (before
 * {@code Admitted}) or from {@code await} (after).
 */
@Timeout(30)
class StatusMappingTest {

    private static final Job JOB = new Job("r1", new JobKey(3, 1), 1);

    private Server server;
    private ManagedChannel channel;

    @AfterEach
    void tearDown() throws InterruptedException {
        if (channel != null) {
            channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }
        if (server != null) {
            server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }
    }

    /** A tier2 that answers every call the same way. */
    private GrpcTier2Client scripted(boolean admitFirst,
                                     Consumer<io.grpc.stub.StreamObserver<ProcessRangeResponse>> end)
            throws IOException {
        String name = InProcessServerBuilder.generateName();
        ServerServiceDefinition service = ServerServiceDefinition.builder(Tier2Protocol.SERVICE_NAME)
                .addMethod(Tier2Protocol.PROCESS_RANGE, ServerCalls.asyncServerStreamingCall((req, out) -> {
                    if (admitFirst) {
                        out.onNext(ProcessRangeResponse.newBuilder().setAdmitted(Admitted.getDefaultInstance())
                                .build());
                    }
                    end.accept(out);
                }))
                .build();
        server = InProcessServerBuilder.forName(name).directExecutor().addService(service).build().start();
        channel = InProcessChannelBuilder.forName(name).directExecutor().build();
        return GrpcTier2Client.builder().channel(channel).build();
    }

    static Stream<Arguments> statusRows() {
        return Stream.of(
                // before Admitted, RESOURCE_EXHAUSTED, or "service currently overloaded" under any status: REFUSED
                Arguments.of(Status.RESOURCE_EXHAUSTED.withDescription("service currently overloaded"), false,
                        Kind.REFUSED),
                Arguments.of(Status.RESOURCE_EXHAUSTED, false, Kind.REFUSED),
                Arguments.of(Status.UNKNOWN.withDescription("service currently overloaded"), false, Kind.REFUSED),
                // Regression: after Admitted the job ran, so nothing is REFUSED there, whatever the status or its
                // words. A worker's execution timeout whose message quoted an upstream's "service currently
                // overloaded" came back REFUSED, so never counted, and the unit was retried without end.
                Arguments.of(Status.RESOURCE_EXHAUSTED.withDescription("Bandwidth exhausted"), true, Kind.RETRYABLE),
                Arguments.of(Status.DEADLINE_EXCEEDED.withDescription(
                        "gave up after 30 s: upstream said service currently overloaded"), true,
                        Kind.EXECUTION_TIMEOUT),
                Arguments.of(Status.UNKNOWN.withDescription("service currently overloaded"), true, Kind.RETRYABLE),
                // UNAVAILABLE before Admitted: UNREACHABLE
                Arguments.of(Status.UNAVAILABLE.withDescription("no healthy upstream"), false, Kind.UNREACHABLE),
                // a message over the receiver's limit: FATAL, never REFUSED (it would be too large at every attempt)
                Arguments.of(Status.RESOURCE_EXHAUSTED.withDescription(
                        "gRPC message exceeds maximum size 4194304: 5242894"), false, Kind.FATAL),
                Arguments.of(Status.RESOURCE_EXHAUSTED.withDescription(
                        "gRPC message exceeds maximum size 4194304: 5242894"), true, Kind.FATAL),
                // DEADLINE_EXCEEDED before Admitted: nothing ran, UNREACHABLE; after: EXECUTION_TIMEOUT
                Arguments.of(Status.DEADLINE_EXCEEDED, false, Kind.UNREACHABLE),
                Arguments.of(Status.DEADLINE_EXCEEDED, true, Kind.EXECUTION_TIMEOUT),
                // no retry can fix these: FATAL
                Arguments.of(Status.INVALID_ARGUMENT, false, Kind.FATAL),
                Arguments.of(Status.FAILED_PRECONDITION, true, Kind.FATAL),
                Arguments.of(Status.PERMISSION_DENIED, false, Kind.FATAL),
                Arguments.of(Status.UNAUTHENTICATED, false, Kind.FATAL),
                Arguments.of(Status.UNIMPLEMENTED, false, Kind.FATAL),
                // anything else: RETRYABLE
                Arguments.of(Status.UNAVAILABLE.withDescription("instance died"), true, Kind.RETRYABLE),
                Arguments.of(Status.INTERNAL, true, Kind.RETRYABLE),
                Arguments.of(Status.UNKNOWN, true, Kind.RETRYABLE),
                Arguments.of(Status.ABORTED, false, Kind.RETRYABLE),
                Arguments.of(Status.CANCELLED, true, Kind.RETRYABLE));
    }

    @ParameterizedTest(name = "{0} after Admitted={1} is {2}")
    @MethodSource("statusRows")
    void statusMapsToItsKind(Status status, boolean admitFirst, Kind expected) throws Exception {
        GrpcTier2Client client = scripted(admitFirst, out -> out.onError(status.asRuntimeException()));
        Tier2Exception e = endOf(client, admitFirst);
        assertEquals(expected, e.kind(), e.getMessage());
    }

    @Test
    void failedMarkedFatalIsFatal() throws Exception {
        GrpcTier2Client client = scripted(true, out -> {
            out.onNext(ProcessRangeResponse.newBuilder()
                    .setFailed(Failed.newBuilder().setReason("bad module").setFatal(true)).build());
            out.onCompleted();
        });
        Tier2Exception e = endOf(client, true);
        assertEquals(Kind.FATAL, e.kind());
        assertTrue(e.getMessage().contains("bad module"), e.getMessage());
    }

    @Test
    void failedNotMarkedFatalIsRetryable() throws Exception {
        GrpcTier2Client client = scripted(true, out -> {
            out.onNext(ProcessRangeResponse.newBuilder()
                    .setFailed(Failed.newBuilder().setReason("stream reset")).build());
            out.onCompleted();
        });
        assertEquals(Kind.RETRYABLE, endOf(client, true).kind());
    }

    @Test
    void streamThatEndsWithoutCompletedIsRetryable() throws Exception {
        GrpcTier2Client client = scripted(true, io.grpc.stub.StreamObserver::onCompleted);
        assertEquals(Kind.RETRYABLE, endOf(client, true).kind());
    }

    @Test
    void streamThatEndsWithoutAdmittedFailsTheDialAsRetryable() throws Exception {
        GrpcTier2Client client = scripted(false, io.grpc.stub.StreamObserver::onCompleted);
        assertEquals(Kind.RETRYABLE, endOf(client, false).kind());
    }

    @Test
    void completedEndsAwaitNormally() throws Exception {
        GrpcTier2Client client = scripted(true, out -> {
            out.onNext(ProcessRangeResponse.newBuilder().setCompleted(Completed.getDefaultInstance()).build());
            out.onCompleted();
        });
        try (Tier2Call call = client.dial(JOB)) {
            call.await();
        }
    }

    @Test
    void interruptedDialCancelsTheCallOnTheTier2() throws Exception {
        java.util.concurrent.CountDownLatch cancelled = new java.util.concurrent.CountDownLatch(1);
        GrpcTier2Client client = scripted(false, out -> ((io.grpc.stub.ServerCallStreamObserver<ProcessRangeResponse>)
                out).setOnCancelHandler(cancelled::countDown)); // never admits, never ends
        java.util.concurrent.atomic.AtomicReference<Throwable> thrown =
                new java.util.concurrent.atomic.AtomicReference<>();
        Thread dialer = Thread.ofVirtual().start(() -> {
            try {
                client.dial(JOB);
            } catch (Throwable e) {
                thrown.set(e);
            }
        });
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> dialer.getState()
                == Thread.State.TIMED_WAITING); // inside dial's wait for Admitted, bounded by the admission timeout
        dialer.interrupt();
        dialer.join(Duration.ofSeconds(5));
        assertTrue(thrown.get() instanceof InterruptedException, String.valueOf(thrown.get()));
        assertTrue(cancelled.await(5, TimeUnit.SECONDS), "the tier2 never saw the cancel");
    }

    @Test
    void noServerAtAllIsUnreachable() throws Exception {
        channel = InProcessChannelBuilder.forName("nobody-" + InProcessServerBuilder.generateName()).build();
        GrpcTier2Client client = GrpcTier2Client.builder().channel(channel).build();
        Tier2Exception e = assertThrows(Tier2Exception.class, () -> client.dial(JOB));
        assertEquals(Kind.UNREACHABLE, e.kind(), e.getMessage());
    }

    @Test
    void refusedTcpConnectIsUnreachable() throws Exception {
        int closedPort;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            closedPort = s.getLocalPort();
        }
        try (GrpcTier2Client client = GrpcTier2Client.builder().addresses(List.of("127.0.0.1:" + closedPort))
                .build()) {
            Tier2Exception e = assertThrows(Tier2Exception.class, () -> client.dial(JOB));
            assertEquals(Kind.UNREACHABLE, e.kind(), e.getMessage());
        }
    }

    @Test
    void callTimeoutIsExecutionTimeout() throws Exception {
        GrpcTier2Client client = GrpcTier2Client.builder().channel(scriptedChannelThatNeverEnds())
                .callTimeout(Duration.ofMillis(200)).build();
        try (Tier2Call call = client.dial(JOB)) {
            Tier2Exception e = assertThrows(Tier2Exception.class, call::await);
            assertEquals(Kind.EXECUTION_TIMEOUT, e.kind(), e.getMessage());
        }
    }

    private ManagedChannel scriptedChannelThatNeverEnds() throws IOException {
        scripted(true, out -> { });
        return channel;
    }

    /** The exception the call ends with: from dial if the tier2 never admitted it, else from await. */
    private static Tier2Exception endOf(GrpcTier2Client client, boolean admitted) throws InterruptedException {
        if (!admitted) {
            return assertThrows(Tier2Exception.class, () -> client.dial(JOB));
        }
        try (Tier2Call call = assertDials(client)) {
            return assertThrows(Tier2Exception.class, call::await);
        }
    }

    private static Tier2Call assertDials(GrpcTier2Client client) throws InterruptedException {
        try {
            return client.dial(JOB);
        } catch (Tier2Exception e) {
            throw new AssertionError("dial failed although the tier2 admitted the job: " + e.getMessage(), e);
        }
    }
}
