package dev.orderly.grpc;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * What {@link GrpcTier2Client.Builder#build()} checks in a gRPC target before any dial: that a {@code host:port} has a
 * port gRPC can dial (a bad one otherwise fails inside gRPC's resolver, on one of its threads, and every dial waits on
 * a channel that never connects), and whether the target is loopback (plaintext is allowed there without asking).
 *
 * <p>A target is either {@code scheme://authority/endpoint} (for {@code dns} the endpoint is {@code host[:port]}) or a
 * bare {@code host[:port]}, which gRPC resolves with {@code dns}. Targets of other schemes are passed on unchecked,
 * except {@code unix:}, which is local by definition. Names are never resolved here: only {@code localhost} and
 * loopback literals ({@code 127.x.y.z}, {@code ::1}) count as loopback.
 */
final class Targets {

    private static final Pattern SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*:");
    // 127.x.y.z with each number 0 to 255: anything else (127.300.0.1) is no literal, and would be looked up in DNS.
    private static final String OCTET = "(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)";
    private static final Pattern IPV4_LOOPBACK =
            Pattern.compile("^127\\." + OCTET + "\\." + OCTET + "\\." + OCTET + "$");

    private Targets() {
    }

    /** The {@code host[:port]} a target dials, when it is a bare endpoint or a {@code dns} one; else empty. */
    static Optional<String> endpoint(String target) {
        if (target.startsWith("unix:")) {
            return Optional.empty();
        }
        int schemeEnd = target.indexOf("://");
        if (schemeEnd > 0 && SCHEME.matcher(target).find()) {
            if (!target.substring(0, schemeEnd).equalsIgnoreCase("dns")) {
                return Optional.empty();
            }
            String rest = target.substring(schemeEnd + 3); // authority/endpoint; the authority is usually empty
            int slash = rest.indexOf('/');
            return Optional.of(slash < 0 ? rest : rest.substring(slash + 1));
        }
        return Optional.of(target);
    }

    /**
     * Checks the port of a target's endpoint, if it names one.
     *
     * @throws IllegalArgumentException naming the target when the port is not a number in 1..65535 or the host is
     *     empty
     */
    static void check(String target) {
        Optional<String> endpoint = endpoint(target);
        if (endpoint.isEmpty()) {
            return;
        }
        String e = endpoint.get();
        String host = host(e);
        if (host.isEmpty()) {
            throw new IllegalArgumentException("target '" + target + "' names no host");
        }
        String port = port(e);
        if (port == null) {
            return; // gRPC's default port
        }
        int n;
        try {
            n = Integer.parseInt(port);
        } catch (NumberFormatException ex) {
            throw new IllegalArgumentException("target '" + target + "': port '" + port + "' is not a number");
        }
        if (n < 1 || n > 65_535) {
            throw new IllegalArgumentException("target '" + target + "': port must be between 1 and 65535, was "
                    + n);
        }
    }

    /** Whether the target surely stays on this machine. */
    static boolean isLoopback(String target) {
        if (target.startsWith("unix:")) {
            return true;
        }
        return endpoint(target).map(e -> isLoopbackHost(host(e))).orElse(false);
    }

    /** Whether a host name or literal is loopback, without resolving it. */
    static boolean isLoopbackHost(String host) {
        String h = host.toLowerCase(Locale.ROOT);
        if (h.length() > 2 && h.startsWith("[") && h.endsWith("]")) {
            // an IPv6 literal as a URL writes it, which InetAddress binds as it is: --host=[::1] is loopback
            h = h.substring(1, h.length() - 1);
        }
        return h.equals("localhost") || IPV4_LOOPBACK.matcher(h).matches() || h.equals("::1")
                || h.equals("0:0:0:0:0:0:0:1");
    }

    private static String host(String endpoint) {
        if (endpoint.startsWith("[")) {
            int close = endpoint.indexOf(']');
            return close < 0 ? endpoint : endpoint.substring(1, close);
        }
        int colon = endpoint.lastIndexOf(':');
        if (colon >= 0 && endpoint.indexOf(':') != colon) {
            return endpoint; // an unbracketed IPv6 literal: no port
        }
        return colon < 0 ? endpoint : endpoint.substring(0, colon);
    }

    private static String port(String endpoint) {
        if (endpoint.startsWith("[")) {
            int close = endpoint.indexOf(']');
            return close >= 0 && close + 1 < endpoint.length() && endpoint.charAt(close + 1) == ':'
                    ? endpoint.substring(close + 2) : null;
        }
        int colon = endpoint.lastIndexOf(':');
        if (colon < 0 || endpoint.indexOf(':') != colon) {
            return null;
        }
        return endpoint.substring(colon + 1);
    }
}
