package dev.orderly.multihost;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;

/**
 * The fleet's secrets, made by the test for one class run with {@code openssl}: a certificate authority, a server
 * certificate for {@link Network#TIER2_NAME} (what the tier1 dials, so host name checking is on), a client
 * certificate for mutual TLS, and a bearer token. Keys are PKCS#8 PEM, as gRPC's {@code TlsServerCredentials} and
 * {@code TlsChannelCredentials} read them. Immutable once made.
 *
 * @param dir where the files are
 */
record TestCa(Path dir) {

    /** Makes every file under {@code dir}. */
    static TestCa make(Path dir) throws IOException {
        Files.createDirectories(dir);
        TestCa ca = new TestCa(dir);
        ca.openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                "-keyout", ca.caKey().toString(), "-out", ca.caCert().toString(), "-days", "2",
                "-subj", "/CN=orderly-mh test CA",
                "-addext", "basicConstraints=critical,CA:TRUE",
                "-addext", "keyUsage=critical,keyCertSign,cRLSign");
        ca.issue("server", "/CN=" + Network.TIER2_NAME,
                "subjectAltName=DNS:" + Network.TIER2_NAME + "\nextendedKeyUsage=serverAuth\n");
        ca.issue("client", "/CN=orderly-mh tier1", "extendedKeyUsage=clientAuth\n");
        byte[] token = new byte[24];
        new SecureRandom().nextBytes(token);
        Files.writeString(ca.tokenFile(), HexFormat.of().formatHex(token) + "\n", StandardCharsets.UTF_8);
        return ca;
    }

    private void issue(String name, String subject, String extensions) throws IOException {
        Path csr = dir.resolve(name + ".csr");
        Path ext = dir.resolve(name + ".ext");
        Files.writeString(ext, extensions, StandardCharsets.UTF_8);
        openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                "-keyout", dir.resolve(name + ".key").toString(), "-out", csr.toString(), "-subj", subject);
        openssl("x509", "-req", "-in", csr.toString(), "-CA", caCert().toString(), "-CAkey", caKey().toString(),
                "-CAcreateserial", "-out", dir.resolve(name + ".pem").toString(), "-days", "2",
                "-extfile", ext.toString());
    }

    private void openssl(String... args) throws IOException {
        List<String> command = new java.util.ArrayList<>(List.of("openssl"));
        command.addAll(List.of(args));
        try {
            Commands.run(command);
        } catch (IOException e) {
            throw new IOException("making the test's TLS certificates needs openssl: " + e.getMessage(), e);
        }
    }

    Path caCert() {
        return dir.resolve("ca.pem");
    }

    private Path caKey() {
        return dir.resolve("ca.key");
    }

    Path serverCert() {
        return dir.resolve("server.pem");
    }

    Path serverKey() {
        return dir.resolve("server.key");
    }

    Path clientCert() {
        return dir.resolve("client.pem");
    }

    Path clientKey() {
        return dir.resolve("client.key");
    }

    /** One token, on one line, as {@code Tier2Main --token-file} reads it. */
    Path tokenFile() {
        return dir.resolve("token");
    }
}
