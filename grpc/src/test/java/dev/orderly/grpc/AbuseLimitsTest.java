package dev.orderly.grpc;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.grpc.proto.Priority;
import dev.orderly.grpc.proto.ProcessRangeRequest;
import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.ForwardingServerCallListener;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ClientCalls;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** What a tier2 does with calls that are not what a tier1 sends: malformed requests, floods of open streams. */
@Timeout(60)
class AbuseLimitsTest {

    private static final MethodDescriptor.Marshaller<byte[]> RAW = new Tier2Service.RawBytes();

    private final List<AutoCloseable> toClose = new ArrayList<>();

    @AfterEach
    void tearDown() throws Exception {
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
    }

    private ManagedChannel channelTo(int port) {
        ManagedChannel channel = Grpc.newChannelBuilderForAddress("127.0.0.1", port,
                InsecureChannelCredentials.create()).build();
        toClose.add(() -> channel.shutdownNow().awaitTermination(5, SECONDS));
        return channel;
    }

    private static MethodDescriptor<byte[], byte[]> rawProcessRange(MethodDescriptor.MethodType type) {
        return MethodDescriptor.<byte[], byte[]>newBuilder().setType(type)
                .setFullMethodName(Tier2Protocol.PROCESS_RANGE.getFullMethodName())
                .setRequestMarshaller(RAW).setResponseMarshaller(RAW).build();
    }

    /** Sends {@code request} as ProcessRange's request and returns how the call ended. */
    private static Status callWith(ManagedChannel channel, byte[] request) {
        Iterator<byte[]> responses = ClientCalls.blockingServerStreamingCall(channel,
                rawProcessRange(MethodDescriptor.MethodType.SERVER_STREAMING),
                CallOptions.DEFAULT.withDeadlineAfter(10, SECONDS), request);
        StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> {
            while (responses.hasNext()) {
                responses.next();
            }
        });
        return e.getStatus();
    }

    @Test
    void aMalformedRequestIsInvalidArgumentWithNoStackTrace() throws Exception {
        List<LogRecord> grpcLogs = new CopyOnWriteArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
                    grpcLogs.add(record);
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger grpc = Logger.getLogger("io.grpc");
        grpc.addHandler(capture);
        try {
            Tier2Server server = Tier2Server.builder().worker((job, work) -> { }).build().start();
            toClose.add(server);
            ManagedChannel channel = channelTo(server.port());

            Status garbage = callWith(channel, new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, 0x01});
            assertEquals(Status.Code.INVALID_ARGUMENT, garbage.getCode(), garbage.toString());
            Status negative = callWith(channel, ProcessRangeRequest.newBuilder().setRequestId("r").setSegment(-1)
                    .build().toByteArray());
            assertEquals(Status.Code.INVALID_ARGUMENT, negative.getCode(), negative.toString());
            Status negativeRank = callWith(channel, ProcessRangeRequest.newBuilder().setRequestId("r").setSegment(3)
                    .setPriority(Priority.newBuilder().setRank(-1)).build().toByteArray());
            assertEquals(Status.Code.INVALID_ARGUMENT, negativeRank.getCode(), negativeRank.toString());
            assertTrue(negativeRank.getDescription().contains("priority.rank must be >= 0, was -1"),
                    negativeRank.toString());
            Status negativeWait = callWith(channel, ProcessRangeRequest.newBuilder().setRequestId("r").setSegment(3)
                    .setPriority(Priority.newBuilder().setMaxWaitMs(-5)).build().toByteArray());
            assertEquals(Status.Code.INVALID_ARGUMENT, negativeWait.getCode(), negativeWait.toString());
            Status negativeStages = callWith(channel, ProcessRangeRequest.newBuilder().setRequestId("r").setSegment(3)
                    .setStages(-2).build().toByteArray());
            assertEquals(Status.Code.INVALID_ARGUMENT, negativeStages.getCode(), negativeStages.toString());
            assertTrue(negativeStages.getDescription().contains("stages must be >= 0, was -2"),
                    negativeStages.toString());
            Status stagePastStages = callWith(channel, ProcessRangeRequest.newBuilder().setRequestId("r")
                    .setSegment(3).setStage(2).setStages(2).build().toByteArray());
            assertEquals(Status.Code.INVALID_ARGUMENT, stagePastStages.getCode(), stagePastStages.toString());
            assertTrue(stagePastStages.getDescription().contains("stage must be below stages 2, was 2"),
                    stagePastStages.toString());
            assertEquals(0, server.jobsAdmitted());
            assertEquals(List.of(), messages(grpcLogs), "gRPC logged a warning or a stack trace");
        } finally {
            grpc.removeHandler(capture);
        }
    }

    private static List<String> messages(List<LogRecord> records) {
        return records.stream().map(r -> r.getLevel() + " " + r.getMessage()).toList();
    }

    @Test
    void streamsThatNeverHalfCloseAreCappedPerConnection() throws Exception {
        AtomicInteger open = new AtomicInteger();
        ServerInterceptor counting = new ServerInterceptor() {
            @Override
            public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
                                                               ServerCallHandler<Q, R> next) {
                open.incrementAndGet();
                return new ForwardingServerCallListener.SimpleForwardingServerCallListener<>(
                        next.startCall(call, headers)) {
                    @Override
                    public void onCancel() {
                        open.decrementAndGet();
                        super.onCancel();
                    }

                    @Override
                    public void onComplete() {
                        open.decrementAndGet();
                        super.onComplete();
                    }
                };
            }
        };
        NettyServerBuilder netty = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
                .intercept(counting);
        Tier2Server server = Tier2Server.builder().maxConcurrentJobs(1).worker((job, work) -> { })
                .serverBuilder(netty).build().start();
        toClose.add(server);
        int cap = 4 * 1 + 16;
        ManagedChannel channel = channelTo(server.port());
        List<ClientCall<byte[], byte[]>> calls = new ArrayList<>();
        for (int i = 0; i < cap + 30; i++) {
            ClientCall<byte[], byte[]> call = channel.newCall(
                    rawProcessRange(MethodDescriptor.MethodType.BIDI_STREAMING), CallOptions.DEFAULT);
            call.start(new ClientCall.Listener<>() { }, new Metadata());
            call.request(1); // and never a message, never a half-close: the stream stays open
            calls.add(call);
        }
        try {
            await().atMost(20, SECONDS).until(() -> open.get() >= cap);
            // Far longer than the streams above took to open: none past the cap gets in.
            await().during(Duration.ofMillis(500)).atMost(5, SECONDS).until(() -> open.get() == cap);
        } finally {
            calls.forEach(c -> c.cancel("test over", null));
        }
        await().atMost(10, SECONDS).until(() -> open.get() == 0);
        assertEquals(0, server.jobsAdmitted());
    }
}
