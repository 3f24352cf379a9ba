package dev.orderly.grpc;

import io.grpc.ChannelCredentials;
import io.grpc.ServerCredentials;
import io.grpc.TlsChannelCredentials;
import io.grpc.TlsServerCredentials;
import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContext;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContextBuilder;
import io.grpc.netty.shaded.io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.NoSuchAlgorithmException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.interfaces.EdECPrivateKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;
import javax.net.ssl.SSLException;

/**
 * TLS credentials and bearer tokens from files, for a tier2 process and its clients: PEM certificate chains and
 * PKCS#8 PEM private keys, and token files of one token a line. Every failure names the file.
 *
 * <pre>{@code
 * Tier2Server.builder().credentials(Tier2Security.serverCredentials(cert, key, clientCa))   // clientCa null: TLS only
 *         .bearerTokens(Tier2Security.readTokens(tokenFile))...
 * GrpcTier2Client.builder().credentials(Tier2Security.clientCredentials(ca, clientCert, clientKey))
 *         .bearerToken(() -> token)...
 * }</pre>
 */
public final class Tier2Security {

    private Tier2Security() {
    }

    /**
     * The server's TLS credentials; with a client CA, mTLS: a client must present a certificate that CA signed.
     *
     * @param certificateChain the server's certificate chain, PEM
     * @param privateKey its private key, PKCS#8 PEM
     * @param clientCa the CA that signs client certificates, PEM, or null for TLS without client certificates
     * @throws IllegalArgumentException naming the file that cannot be read
     */
    public static ServerCredentials serverCredentials(Path certificateChain, Path privateKey, Path clientCa) {
        TlsServerCredentials.Builder b = TlsServerCredentials.newBuilder();
        // TlsServerCredentials keeps the files' bytes unread: a file that is no PEM certificate chain, or no PKCS#8
        // key, was found only when the Tier2Server was built, in Netty's words and naming no file ("Input stream not
        // contain valid certificates."). So each file is also read here, the way the server's transport reads it.
        SslContextBuilder check;
        try {
            b.keyManager(readable(certificateChain).toFile(), readable(privateKey).toFile());
            check = GrpcSslContexts.forServer(certificateChain.toFile(), privateKey.toFile());
        } catch (IOException | IllegalArgumentException e) {
            throw new IllegalArgumentException("cannot use the TLS certificate " + certificateChain + " with key "
                    + privateKey + ": " + e.getMessage() + keyForm(privateKey), e);
        }
        if (clientCa != null) {
            try {
                b.trustManager(readable(clientCa).toFile()).clientAuth(TlsServerCredentials.ClientAuth.REQUIRE);
                check.trustManager(clientCa.toFile());
            } catch (IOException | IllegalArgumentException e) {
                throw new IllegalArgumentException("cannot use the client CA " + clientCa + ": " + e.getMessage(), e);
            }
        }
        try {
            ReferenceCountUtil.release(check.build());
        } catch (SSLException | IllegalArgumentException e) {
            throw new IllegalArgumentException("cannot use the TLS certificate " + certificateChain + " with key "
                    + privateKey + ": " + rootMessage(e), e);
        }
        // Netty's server context applies the key only at each handshake: a key of another pair passed the build
        // above, and every handshake of the tier2 failed.
        if (!keyIsTheCertificates(certificateChain, privateKey)) {
            throw new IllegalArgumentException("cannot use the TLS certificate " + certificateChain + " with key "
                    + privateKey + ": " + NOT_ITS_KEY);
        }
        return b.build();
    }

    /**
     * The client's TLS credentials: trust {@code ca} (null: the JDK's default trust store); present a certificate
     * for mTLS when both {@code certificateChain} and {@code privateKey} are given.
     *
     * @throws IllegalArgumentException naming the file that cannot be read, or when only one of the certificate
     *     and the key is given
     */
    public static ChannelCredentials clientCredentials(Path ca, Path certificateChain, Path privateKey) {
        if ((certificateChain == null) != (privateKey == null)) {
            throw new IllegalArgumentException("a client certificate needs its key and a key its certificate");
        }
        TlsChannelCredentials.Builder b = TlsChannelCredentials.newBuilder();
        SslContextBuilder check = GrpcSslContexts.forClient(); // reads each file as the channel will: see above
        try {
            if (ca != null) {
                b.trustManager(readable(ca).toFile());
                check.trustManager(ca.toFile());
            }
        } catch (IOException | IllegalArgumentException e) {
            throw new IllegalArgumentException("cannot use the CA " + ca + ": " + e.getMessage(), e);
        }
        if (certificateChain != null) {
            try {
                b.keyManager(readable(certificateChain).toFile(), readable(privateKey).toFile());
                check.keyManager(certificateChain.toFile(), privateKey.toFile());
            } catch (IOException | IllegalArgumentException e) {
                throw new IllegalArgumentException("cannot use the client certificate " + certificateChain
                        + " with key " + privateKey + ": " + e.getMessage() + keyForm(privateKey), e);
            }
            if (!keyIsTheCertificates(certificateChain, privateKey)) {
                throw new IllegalArgumentException("cannot use the client certificate " + certificateChain
                        + " with key " + privateKey + ": " + NOT_ITS_KEY);
            }
        }
        return b.build();
    }

    /**
     * The tokens of a token file: one a line; blank lines and lines starting with {@code #} are skipped, and so is a
     * byte order mark at the start of the file (some editors write one).
     *
     * @throws IllegalArgumentException naming the file when it cannot be read or holds no token, and the file and
     *     line (never the token) when a token holds a character other than printable ASCII: a header carries only
     *     those, so no client could ever send it
     */
    public static List<String> readTokens(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read the token file " + file + ": " + why(e), e);
        }
        List<String> tokens = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (i == 0 && line.startsWith("\uFEFF")) {
                line = line.substring(1); // not whitespace to strip(): it stayed in the token, which then never matched
            }
            line = line.strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            if (!isPrintableAscii(line)) {
                throw new IllegalArgumentException("the token on line " + (i + 1) + " of the token file " + file
                        + " holds a character that is not printable ASCII; no client can send it in a header");
            }
            tokens.add(line);
        }
        if (tokens.isEmpty()) {
            throw new IllegalArgumentException("the token file " + file + " holds no token");
        }
        return List.copyOf(tokens);
    }

    /** Whether {@code token} can travel in an ASCII header as it is: characters from space to {@code ~} only. */
    static boolean isPrintableAscii(String token) {
        for (int i = 0; i < token.length(); i++) {
            char c = token.charAt(i);
            if (c < 0x20 || c > 0x7E) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether a host name or address literal is loopback ({@code localhost}, {@code 127.x.y.z}, {@code ::1}), the
     * way the builders decide whether plaintext needs asking for: names are never resolved.
     */
    public static boolean isLoopbackHost(String host) {
        return Targets.isLoopbackHost(host);
    }

    private static final String NOT_ITS_KEY = "that key is not the key of the certificate (they come from different"
            + " pairs), so every TLS handshake would fail";

    /**
     * Whether the private key is the one of the chain's first certificate: something signed with it verifies with the
     * certificate's public key. The key is read by the transport's own reader, so every form the transport takes is
     * checked: PKCS#1 and SEC1 too when BouncyCastle is on the class path. True when either file is in a form this
     * can not read (an algorithm the JDK has no signature for): the transport, which read both above, is left to
     * judge those.
     */
    private static boolean keyIsTheCertificates(Path certificateChain, Path privateKey) {
        X509Certificate leaf;
        byte[] pkcs8;
        try (InputStream in = Files.newInputStream(certificateChain)) {
            Iterator<? extends Certificate> chain = CertificateFactory.getInstance("X.509").generateCertificates(in)
                    .iterator();
            if (!chain.hasNext() || !(chain.next() instanceof X509Certificate first)) {
                return true;
            }
            leaf = first;
            // BouncyCastle's key (its algorithm "ECDSA" for an EC key) is handed to the JDK's signatures as its
            // PKCS#8 encoding, which every reader gives.
            pkcs8 = TransportKeys.read(privateKey).getEncoded();
        } catch (IOException | GeneralSecurityException | IllegalArgumentException e) {
            return true;
        }
        if (pkcs8 == null) {
            return true;
        }
        PublicKey publicKey = leaf.getPublicKey();
        PrivateKey key;
        try {
            key = KeyFactory.getInstance(publicKey.getAlgorithm()).generatePrivate(new PKCS8EncodedKeySpec(pkcs8));
        } catch (NoSuchAlgorithmException e) {
            return true;
        } catch (GeneralSecurityException e) {
            return false; // no key of the certificate's algorithm at all
        }
        String algorithm = switch (key.getAlgorithm()) {
            case "RSA" -> "SHA256withRSA";
            case "EC" -> "SHA256withECDSA";
            case "DSA" -> "SHA256withDSA";
            case "EdDSA", "Ed25519", "Ed448" -> key.getAlgorithm();
            default -> null;
        };
        if (algorithm == null) {
            return true;
        }
        byte[] probe = "orderly: is this the certificate's key?".getBytes(StandardCharsets.US_ASCII);
        try {
            Signature sign = Signature.getInstance(algorithm);
            sign.initSign(key);
            sign.update(probe);
            byte[] signature = sign.sign();
            Signature verify = Signature.getInstance(algorithm);
            verify.initVerify(publicKey);
            verify.update(probe);
            return verify.verify(signature);
        } catch (NoSuchAlgorithmException e) {
            return true;
        } catch (GeneralSecurityException e) {
            return false;
        }
    }

    /**
     * The transport's key reader ({@code SslContext.toPrivateKey}, reached as a subclass may): the key the server and
     * the channel will use, in whatever form they take it, BouncyCastle's included when it is on the class path,
     * without this module depending on BouncyCastle. Never instantiated.
     */
    private abstract static class TransportKeys extends SslContext {
        static PrivateKey read(Path privateKey) throws IOException, GeneralSecurityException {
            return toPrivateKey(privateKey.toFile(), null);
        }
    }

    /**
     * What form a key the transport could not read is in, when it is a form that holds a good key ("File does not
     * contain valid private key" said of a valid key sent a user looking for a broken file), or "".
     */
    private static String keyForm(Path privateKey) {
        String pem;
        try {
            pem = Files.readString(privateKey, StandardCharsets.ISO_8859_1);
        } catch (IOException | RuntimeException e) {
            return "";
        }
        String form;
        if (pem.contains("-----BEGIN ENCRYPTED PRIVATE KEY-----") || pem.contains("Proc-Type: 4,ENCRYPTED")) {
            form = "it is encrypted, and no passphrase can be given";
        } else if (pem.contains("-----BEGIN RSA PRIVATE KEY-----")) {
            form = "it is a PKCS#1 key (BEGIN RSA PRIVATE KEY)";
        } else if (pem.contains("-----BEGIN EC PRIVATE KEY-----")) {
            form = "it is a SEC1 key (BEGIN EC PRIVATE KEY)";
        } else if (edDsaCurve(pem) instanceof String curve) {
            // A good PKCS#8 key, the form asked for, that the transport still could not read: without BouncyCastle
            // it reads RSA, DSA and EC keys only, and "File does not contain valid private key" said of it sent the
            // user looking for a broken file.
            return " (it is an " + curve + " key, which the TLS transport does not take; give an RSA or EC key, PKCS#8,"
                    + " and its certificate)";
        } else {
            return "";
        }
        return " (" + form + "; give the key unencrypted as PKCS#8, BEGIN PRIVATE KEY, which"
                + " 'openssl pkcs8 -topk8 -nocrypt -in " + privateKey + "' writes)";
    }

    /** The curve of an unencrypted PKCS#8 PEM EdDSA key ("Ed25519", "Ed448"), or null for any other content. */
    private static String edDsaCurve(String pem) {
        String begin = "-----BEGIN PRIVATE KEY-----";
        int from = pem.indexOf(begin);
        int to = from < 0 ? -1 : pem.indexOf("-----END PRIVATE KEY-----", from);
        if (to < 0) {
            return null;
        }
        try {
            byte[] der = Base64.getMimeDecoder().decode(pem.substring(from + begin.length(), to));
            PrivateKey key = KeyFactory.getInstance("EdDSA").generatePrivate(new PKCS8EncodedKeySpec(der));
            return key instanceof EdECPrivateKey ed ? ed.getParams().getName() : key.getAlgorithm();
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            return null;
        }
    }

    /** The message at the bottom of {@code e}'s causes: what Netty or the JDK said of the key or certificate. */
    private static String rootMessage(Throwable e) {
        Throwable root = e;
        for (int depth = 0; root.getCause() != null && root.getCause() != root && depth < 16; depth++) {
            root = root.getCause();
        }
        return root.getMessage() != null ? root.getMessage() : String.valueOf(e.getMessage());
    }

    /**
     * Why a file could not be read, in words: the exception's own text ({@code java.nio.file.NoSuchFileException:
     * /etc/orderly/token/tokens}) named Java's class to a person running {@code Tier2Main}, and said the path twice.
     */
    private static String why(IOException e) {
        if (e instanceof NoSuchFileException) {
            return "no such file";
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof CharacterCodingException) {
            return "it is not UTF-8 text";
        }
        return e.getMessage() != null ? e.getMessage() : "an I/O error";
    }

    private static Path readable(Path file) {
        if (!Files.isReadable(file)) {
            throw new IllegalArgumentException(file + " is not a readable file");
        }
        return file;
    }
}
