package dev.orderly.sim.tier2;

import dev.orderly.grpc.GrpcTier2Client;
import dev.orderly.grpc.Tier2Security;
import dev.orderly.testing.net.TestCertificates;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;

/**
 * How {@code ./orderly fleet} secures its local fleet: by default TLS with a CA and a certificate made at start (in
 * the run's own directory, deleted with it, never committed) and one random bearer token; or plaintext, when asked
 * for. Gives the tier2 processes their options and the tier1 its client. This class is thread-safe (immutable).
 */
public final class FleetSecurity {

    private final Path ca;
    private final TestCertificates.Pem server;
    private final Path tokenFile;
    private final String token;

    private FleetSecurity(Path ca, TestCertificates.Pem server, Path tokenFile, String token) {
        this.ca = ca;
        this.server = server;
        this.tokenFile = tokenFile;
        this.token = token;
    }

    /** TLS and a token: a new CA, a certificate for 127.0.0.1 and a token file, all in {@code dir}. */
    public static FleetSecurity tls(Path dir) throws IOException {
        try {
            Files.createDirectories(dir);
            TestCertificates authority = TestCertificates.authority(dir, "fleet");
            byte[] secret = new byte[32];
            new SecureRandom().nextBytes(secret);
            String token = Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
            Path tokens = Files.writeString(dir.resolve("tokens"), token + "\n");
            return new FleetSecurity(authority.caCertificate(), authority.leaf("tier2"), tokens, token);
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot make the fleet's certificates: " + e.getMessage(), e);
        }
    }

    /** No TLS, no token (loopback only). */
    public static FleetSecurity plaintext() {
        return new FleetSecurity(null, null, null, null);
    }

    /** Whether this is TLS with a token. */
    public boolean isTls() {
        return server != null;
    }

    /** For people: {@code TLS + token} or {@code plaintext}. */
    public String describe() {
        return isTls() ? "TLS + token" : "plaintext";
    }

    /** The options each {@code Tier2Main} gets. */
    public List<String> tier2Args() {
        return isTls() ? List.of("--tls-cert=" + server.certificate(), "--tls-key=" + server.key(),
                "--token-file=" + tokenFile) : List.of();
    }

    /** A client builder for {@code addresses}, with the credentials and the token. */
    public GrpcTier2Client.Builder client(List<String> addresses) {
        GrpcTier2Client.Builder b = GrpcTier2Client.builder().addresses(addresses);
        if (isTls()) {
            b.credentials(Tier2Security.clientCredentials(ca, null, null)).bearerToken(() -> token);
        }
        return b;
    }
}
