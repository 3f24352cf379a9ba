package dev.orderly.grpc;

import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Collection;
import java.util.List;

/**
 * Lets a call through only with {@code authorization: Bearer <t>} where {@code t} is one of the accepted tokens
 * (several at once, for rotation); else closes it {@code UNAUTHENTICATED} before the service sees it. Each accepted
 * token is compared in constant time ({@link MessageDigest#isEqual}), and all of them every time, so the time taken
 * says neither how much of a token matched nor which one. Installed on the Tier2 service only: the health service
 * stays open to probes. This class is thread-safe (immutable).
 */
final class TokenCheck implements ServerInterceptor {

    private final List<byte[]> accepted;

    TokenCheck(Collection<String> tokens) {
        this.accepted = tokens.stream().map(t -> t.getBytes(StandardCharsets.UTF_8)).toList();
    }

    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
                                                       ServerCallHandler<Q, R> next) {
        String header = headers.get(BearerToken.AUTHORIZATION);
        if (header == null || !header.regionMatches(true, 0, BearerToken.PREFIX, 0, BearerToken.PREFIX.length())) {
            call.close(Status.UNAUTHENTICATED.withDescription("no bearer token"), new Metadata());
            return new ServerCall.Listener<>() { };
        }
        if (!matches(header.substring(BearerToken.PREFIX.length()).strip().getBytes(StandardCharsets.UTF_8))) {
            call.close(Status.UNAUTHENTICATED.withDescription("bearer token not accepted"), new Metadata());
            return new ServerCall.Listener<>() { };
        }
        return next.startCall(call, headers);
    }

    private boolean matches(byte[] given) {
        boolean any = false;
        for (byte[] token : accepted) {
            any |= MessageDigest.isEqual(token, given);
        }
        return any;
    }
}
