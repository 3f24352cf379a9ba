package dev.orderly.tier2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.testing.net.TestCertificates;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Regression: a file option of the launcher given an empty value, as a deployment writes {@code --tls-key=$TLS_KEY}
 * or {@code --token-file=$TOKENS} with the variable unset, was refused in words that named neither the option nor
 * the value: {@code tier2: cannot use the TLS certificate /etc/tls.crt with key :  (No such file or directory)}, or
 * {@code tier2: cannot read the token file : Is a directory} (the empty path is the working directory). Each is now
 * one line, exit 2, naming the option and saying its value is empty.
 */
@Timeout(60)
class AnEmptySecurityFileOptionIsNamedTest {

    @TempDir
    Path dir;

    private String refusal(String... options) {
        List<String> args = new ArrayList<>(List.of("--outputs=" + dir.resolve("out"),
                "--worker=" + TestWorkers.Echo.class.getName()));
        args.addAll(List.of(options));
        StringWriter err = new StringWriter();
        int code = Tier2Main.execute(args.toArray(String[]::new), new PrintWriter(new StringWriter(), true),
                new PrintWriter(err, true));
        assertEquals(2, code, err.toString());
        assertEquals(1, err.toString().strip().lines().count(), err.toString());
        return err.toString();
    }

    @Test
    void anEmptyTlsKeyIsNamed() throws Exception {
        TestCertificates.Pem leaf = TestCertificates.authority(dir, "fleet").leaf("tier2");
        String err = refusal("--tls-cert=" + leaf.certificate(), "--tls-key=");
        assertTrue(err.contains("--tls-key") && err.contains("empty"), err);
    }

    @Test
    void anEmptyTlsCertificateIsNamed() throws Exception {
        TestCertificates.Pem leaf = TestCertificates.authority(dir, "fleet").leaf("tier2");
        String err = refusal("--tls-cert=", "--tls-key=" + leaf.key());
        assertTrue(err.contains("--tls-cert") && err.contains("empty"), err);
    }

    @Test
    void anEmptyClientCaIsNamed() throws Exception {
        TestCertificates.Pem leaf = TestCertificates.authority(dir, "fleet").leaf("tier2");
        String err = refusal("--tls-cert=" + leaf.certificate(), "--tls-key=" + leaf.key(), "--client-ca=");
        assertTrue(err.contains("--client-ca") && err.contains("empty"), err);
    }

    @Test
    void anEmptyTokenFileIsNamed() {
        String err = refusal("--token-file=");
        assertTrue(err.contains("--token-file") && err.contains("empty"), err);
    }
}
