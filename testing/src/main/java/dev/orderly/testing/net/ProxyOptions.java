package dev.orderly.testing.net;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/** The options of {@link TcpProxy#main}: where to listen, where to forward, and the one-way delay. */
record ProxyOptions(InetSocketAddress listen, InetSocketAddress target, Duration delay) {

    static ProxyOptions parse(String[] args) {
        InetSocketAddress listen = null;
        InetSocketAddress target = null;
        Duration delay = Duration.ZERO;
        // each option as first given: a second one is refused, not silently kept in place of the first
        Map<String, String> given = new HashMap<>();
        for (String arg : args) {
            int eq = arg.indexOf('=');
            String name = eq < 0 ? arg : arg.substring(0, eq);
            String value = eq < 0 ? null : arg.substring(eq + 1);
            String earlier = given.putIfAbsent(name, arg);
            if (earlier != null) {
                throw new IllegalArgumentException(name + " given twice: '" + earlier + "' and '" + arg + "'");
            }
            switch (name) {
                case "--listen" -> listen = parseAddress(name, value);
                case "--target" -> {
                    target = parseAddress(name, value);
                    // Port 0 picks a free port to listen on; nothing can be connected to at port 0.
                    if (target.getPort() == 0) {
                        throw new IllegalArgumentException(
                                name + ": port must be 1..65535, got 0 in '" + value + "'");
                    }
                }
                case "--delay-ms" -> delay = parseDelay(name, value);
                default -> throw new IllegalArgumentException(
                        "unknown option '" + arg + "' (--listen=HOST:PORT --target=HOST:PORT [--delay-ms=N])");
            }
        }
        if (listen == null) {
            throw new IllegalArgumentException("--listen=HOST:PORT is required");
        }
        if (target == null) {
            throw new IllegalArgumentException("--target=HOST:PORT is required");
        }
        return new ProxyOptions(listen, target, delay);
    }

    /** {@code HOST:PORT} or {@code [V6]:PORT}; the port 0..65535 (0 only makes sense for {@code --listen}). */
    static InetSocketAddress parseAddress(String option, String value) {
        if (value == null || value.isEmpty()) {
            throw new IllegalArgumentException(option + ": expected HOST:PORT, got nothing");
        }
        int colon = value.lastIndexOf(':');
        if (colon <= 0 || colon == value.length() - 1) {
            throw new IllegalArgumentException(option + ": expected HOST:PORT, got '" + value + "'");
        }
        String host = value.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(decimal(value.substring(colon + 1)));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + ": port is not a number in '" + value + "'");
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException(option + ": port must be 0..65535, got " + port + " in '" + value + "'");
        }
        InetSocketAddress address = new InetSocketAddress(host, port);
        // Resolved here once and never again: a host that does not resolve now would fail every connection.
        if (address.isUnresolved()) {
            throw new IllegalArgumentException(option + ": cannot resolve host '" + host + "' in '" + value + "'");
        }
        return address;
    }

    /**
     * {@code text} if it is a decimal number, an optional {@code -} then 0-9 only: {@code Integer.parseInt} and
     * {@code Long.parseLong} also take other scripts' digits (Arabic-Indic ones, say).
     *
     * @throws NumberFormatException otherwise
     */
    private static String decimal(String text) {
        String digits = text.startsWith("-") ? text.substring(1) : text;
        if (digits.isEmpty() || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new NumberFormatException("not a decimal number: '" + text + "'");
        }
        return text;
    }

    static Duration parseDelay(String option, String value) {
        if (value == null) { // "--delay-ms" without "=N"
            throw new IllegalArgumentException(option + ": expected a number of milliseconds, got nothing");
        }
        long millis;
        try {
            millis = Long.parseLong(decimal(value));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + ": expected a number of milliseconds, got '" + value + "'");
        }
        if (millis < 0) {
            throw new IllegalArgumentException(option + ": must be >= 0, got " + millis);
        }
        return Duration.ofMillis(millis);
    }
}
