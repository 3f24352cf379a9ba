package dev.orderly.s3;

import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.providers.DefaultAwsRegionProviderChain;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;

/**
 * {@link S3Client}s for an {@link S3OutputStore}, with every timeout and the retries set here rather than left to the
 * SDK's defaults, which wait up to minutes on a stalled connection:
 *
 * <ul>
 *   <li>connect: {@value #CONNECT_SECONDS} s; socket read: {@value #READ_SECONDS} s;
 *   <li>one attempt: {@value #ATTEMPT_SECONDS} s; the whole call, retries included: {@value #CALL_SECONDS} s;
 *   <li>retries: the SDK's standard strategy (exponential back-off with jitter, throttling and 5xx and connection
 *       errors only), {@value #MAX_ATTEMPTS} attempts in all. A job the store fails is retried by Orderly itself, so
 *       the client needs no more than that.
 * </ul>
 *
 * <p>The HTTP client is the SDK's {@code url-connection-client}, over the JDK's own {@code HttpURLConnection}: no
 * dependency beyond the SDK, and enough for one blocking request at a time per thread (the store makes no streaming,
 * multipart or async calls). Credentials come from the SDK's usual chain (environment, system properties, profile,
 * container or instance role) unless given.
 */
public final class S3Clients {

    /** Connect timeout, seconds. */
    public static final int CONNECT_SECONDS = 2;
    /** Socket read timeout, seconds. */
    public static final int READ_SECONDS = 30;
    /** Timeout of one attempt, seconds. */
    public static final int ATTEMPT_SECONDS = 30;
    /** Timeout of a whole call with its retries, seconds. */
    public static final int CALL_SECONDS = 90;
    /** Attempts per call, the first included. */
    public static final int MAX_ATTEMPTS = 3;

    private S3Clients() {
    }

    /**
     * A client for AWS S3 itself, or for an S3-compatible endpoint (path-style access; the region is {@code aws.region} or
     * {@code AWS_REGION} if set, else {@code us-east-1}, which such servers ignore).
     *
     * @param endpoint an S3-compatible endpoint such as {@code http://127.0.0.1:9000}, or null for AWS S3 (its
     *        region from the SDK's usual chain)
     * @param credentials the credentials, or null for the SDK's usual chain
     * @throws IllegalArgumentException if {@code endpoint} is not an absolute {@code http} or {@code https} URI
     * @throws IllegalStateException if {@code endpoint} is null and the SDK's chain finds no region ({@code AWS_REGION},
     *         {@code aws.region}, the AWS profile, the instance's metadata): said in words, not in the SDK's classes
     */
    public static S3Client create(URI endpoint, AwsCredentialsProvider credentials) {
        S3ClientBuilder b = S3Client.builder()
                .httpClientBuilder(UrlConnectionHttpClient.builder()
                        .connectionTimeout(Duration.ofSeconds(CONNECT_SECONDS))
                        .socketTimeout(Duration.ofSeconds(READ_SECONDS)))
                .overrideConfiguration(ClientOverrideConfiguration.builder()
                        .apiCallAttemptTimeout(Duration.ofSeconds(ATTEMPT_SECONDS))
                        .apiCallTimeout(Duration.ofSeconds(CALL_SECONDS))
                        .retryStrategy(AwsRetryStrategy.standardRetryStrategy().toBuilder()
                                .maxAttempts(MAX_ATTEMPTS).build())
                        .build())
                .credentialsProvider(credentials != null ? credentials : DefaultCredentialsProvider.builder().build());
        if (endpoint == null) {
            b.region(awsRegion());
        } else {
            // A scheme knows no case (HTTP://host is http://host): compared, and handed to the SDK, in lower case.
            String scheme = endpoint.getScheme() == null ? null : endpoint.getScheme().toLowerCase(Locale.ROOT);
            if (!endpoint.isAbsolute() || !("http".equals(scheme) || "https".equals(scheme))
                    || endpoint.getHost() == null) {
                throw new IllegalArgumentException("S3 endpoint must be an http:// or https:// URL with a host, was '"
                        + endpoint + "'");
            }
            URI lowerCaseScheme = URI.create(scheme + endpoint.toString().substring(scheme.length()));
            // S3-compatible servers answer path-style requests (no bucket.host DNS) and compute no trailing checksums.
            b.endpointOverride(lowerCaseScheme).forcePathStyle(true).region(regionOr(Region.US_EAST_1))
                    .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                    .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED);
        }
        return b.build();
    }

    /** The region of AWS S3 itself, from the SDK's chain; its failure names every provider class it asked. */
    private static Region awsRegion() {
        try {
            return DefaultAwsRegionProviderChain.builder().build().getRegion();
        } catch (SdkClientException e) {
            throw new IllegalStateException("no AWS region: set AWS_REGION (or the system property aws.region) or a"
                    + " region in the AWS profile", e);
        }
    }

    /** The region set by {@code aws.region} or {@code AWS_REGION}, else {@code fallback}: never an instance lookup. */
    private static Region regionOr(Region fallback) {
        String r = System.getProperty("aws.region", System.getenv("AWS_REGION"));
        return r == null || r.isBlank() ? fallback : Region.of(r.strip());
    }
}
