package dev.orderly.tier2;

import dev.orderly.grpc.Tier2Security;
import dev.orderly.grpc.Tier2Server;
import java.nio.file.Path;
import picocli.CommandLine;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * {@code Tier2Main}'s TLS, mTLS and token options, checked together: TLS needs a certificate and its key; a client CA
 * (mTLS) needs TLS; a host that is not loopback needs TLS or {@code --insecure-plaintext}.
 */
final class SecurityOptions {

    @Option(names = "--tls-cert", paramLabel = "PEM",
            description = "This tier2's TLS certificate chain (PEM); with --tls-key, serves TLS.")
    Path tlsCert;

    @Option(names = "--tls-key", paramLabel = "PEM", description = "The private key of --tls-cert (PKCS#8 PEM).")
    Path tlsKey;

    @Option(names = "--client-ca", paramLabel = "PEM",
            description = "Require client certificates signed by this CA (mTLS); needs --tls-cert.")
    Path clientCa;

    @Option(names = "--token-file", paramLabel = "FILE",
            description = "Accept only calls with one of these bearer tokens (one a line; two during a rotation)."
                    + " The health service stays open.")
    Path tokenFile;

    @Option(names = "--insecure-plaintext",
            description = "Serve without TLS on a --host that is not loopback (only on a network you trust).")
    boolean insecurePlaintext;

    /** Applies the options to {@code builder}, or throws a {@link ParameterException} naming them. */
    void apply(CommandLine cl, Tier2Server.Builder builder, String host) {
        // An empty value (--tls-key=$TLS_KEY with the variable unset) is the working directory as a path, refused in
        // words naming neither the option nor the value: "with key :  (No such file or directory)".
        notEmpty(cl, "--tls-cert", tlsCert);
        notEmpty(cl, "--tls-key", tlsKey);
        notEmpty(cl, "--client-ca", clientCa);
        notEmpty(cl, "--token-file", tokenFile);
        if ((tlsCert == null) != (tlsKey == null)) {
            throw new ParameterException(cl, "--tls-cert and --tls-key go together; give both or neither");
        }
        if (clientCa != null && tlsCert == null) {
            throw new ParameterException(cl, "--client-ca=" + clientCa + " needs --tls-cert and --tls-key");
        }
        if (insecurePlaintext && tlsCert != null) {
            throw new ParameterException(cl, "--insecure-plaintext and --tls-cert contradict each other");
        }
        try {
            if (tlsCert != null) {
                builder.credentials(Tier2Security.serverCredentials(tlsCert, tlsKey, clientCa));
            } else if (insecurePlaintext) {
                builder.plaintext();
            } else if (!Tier2Security.isLoopbackHost(host)) {
                throw new ParameterException(cl, "--host=" + host + " is not loopback: give --tls-cert and --tls-key,"
                        + " or --insecure-plaintext");
            }
            if (tokenFile != null) {
                builder.bearerTokens(Tier2Security.readTokens(tokenFile));
            }
        } catch (IllegalArgumentException e) {
            throw new ParameterException(cl, e.getMessage(), e);
        }
    }

    private static void notEmpty(CommandLine cl, String option, Path file) {
        if (file != null && file.toString().isEmpty()) {
            throw new ParameterException(cl, option + " is empty: give the path of a file");
        }
    }
}
