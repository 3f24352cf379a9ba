package dev.orderly.tier2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Regression: a {@code --health-port} another process holds was said as {@code can not bind the health port: Failed
 * to bind to address /127.0.0.1:N (Failed to bind to address /127.0.0.1:N)}: the address twice and not why, where a
 * {@code --port} in use says "(… Address already in use)".
 */
@Timeout(60)
class AHealthPortInUseSaysWhyTest {

    @TempDir
    Path dir;

    @Test
    void aHealthPortInUseIsSaidToBeInUse() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            StringWriter err = new StringWriter();
            int code = Tier2Main.execute(new String[] {"--outputs=" + dir.resolve("out"),
                "--worker=" + TestWorkers.Other.class.getName(), "--health-port=" + taken.getLocalPort()},
                    new PrintWriter(new StringWriter()), new PrintWriter(err));
            String line = err.toString().strip();
            assertEquals(1, code, line);
            assertEquals(1, line.lines().count(), line);
            assertTrue(line.startsWith("tier2: can not bind the health port: "), line);
            assertTrue(line.contains(String.valueOf(taken.getLocalPort())), line);
            assertTrue(line.contains("in use"), line);
        }
    }
}
