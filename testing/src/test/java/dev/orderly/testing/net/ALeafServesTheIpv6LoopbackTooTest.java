package dev.orderly.testing.net;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kit's leaves "serve loopback servers", and the kit's {@link TcpProxy} listens on {@code ::1} when the JVM prefers
 * IPv6 (its {@code hostPort()} is then {@code [0:0:0:0:0:0:0:1]:PORT}); but a leaf named only {@code localhost} and
 * {@code 127.0.0.1}, so a TLS client that dials the IPv6 loopback by address refused the server's certificate: "No
 * subject alternative names matching IP address 0:0:0:0:0:0:0:1 found". A leaf names {@code ::1} too.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ALeafServesTheIpv6LoopbackTooTest {

    @TempDir
    Path dir;

    @Test
    void aTlsClientDialingTheIpv6LoopbackByAddressAcceptsTheLeaf() throws Exception {
        TestCertificates ca = TestCertificates.authority(dir, "fleet");
        TestCertificates.Pem leaf = ca.leaf("tier2");
        Certificate caCert = PemFiles.certificate(ca.caCertificate());
        Certificate leafCert = PemFiles.certificate(leaf.certificate());
        String pem = Files.readString(leaf.key()).replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
        PrivateKey key = KeyFactory.getInstance("EC").generatePrivate(
                new PKCS8EncodedKeySpec(Base64.getDecoder().decode(pem)));

        KeyStore serverStore = KeyStore.getInstance("PKCS12");
        serverStore.load(null, null);
        serverStore.setKeyEntry("tier2", key, new char[0], new Certificate[] {leafCert});
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(serverStore, new char[0]);
        SSLContext serverContext = SSLContext.getInstance("TLS");
        serverContext.init(kmf.getKeyManagers(), null, null);

        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("ca", caCert);
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        SSLContext clientContext = SSLContext.getInstance("TLS");
        clientContext.init(null, tmf.getTrustManagers(), null);

        InetAddress v6Loopback = InetAddress.getByName("::1");
        try (SSLServerSocket server = (SSLServerSocket) serverContext.getServerSocketFactory()
                .createServerSocket(0, 50, v6Loopback)) {
            server.setSoTimeout(10_000);
            Thread serverSide = Thread.ofPlatform().daemon().start(() -> {
                try (SSLSocket accepted = (SSLSocket) server.accept()) {
                    accepted.setSoTimeout(10_000);
                    InputStream in = accepted.getInputStream();
                    OutputStream out = accepted.getOutputStream();
                    out.write(in.read());
                    out.flush();
                } catch (Exception e) {
                    // the client's assertion says why
                }
            });
            try (SSLSocket client = (SSLSocket) clientContext.getSocketFactory().createSocket()) {
                client.connect(new InetSocketAddress(v6Loopback, server.getLocalPort()), 10_000);
                client.setSoTimeout(10_000);
                SSLParameters params = client.getSSLParameters();
                params.setEndpointIdentificationAlgorithm("HTTPS"); // as grpc-java checks a server's name
                client.setSSLParameters(params);
                assertDoesNotThrow(client::startHandshake, "a TLS handshake with [::1]:" + server.getLocalPort());
                client.getOutputStream().write(7);
                client.getOutputStream().flush();
                client.getInputStream().read();
            } finally {
                serverSide.join(10_000);
            }
        }
    }
}
