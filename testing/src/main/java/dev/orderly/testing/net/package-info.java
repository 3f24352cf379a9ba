/**
 * Network faults for tests on one machine, where the kernel has no {@code netem}: {@link TcpProxy} delays, freezes
 * and cuts TCP connections between a client and a real server, in-process or as a separate process;
 * {@link TestCertificates} makes a CA and certificates for TLS and mTLS at test time.
 */
package dev.orderly.testing.net;
