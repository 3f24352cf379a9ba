/**
 * Network faults for tests on one machine, where the kernel has no {@code netem}: {@link TcpProxy} delays, freezes
 * and cuts TCP connections between a client and a real server, in-process or as a separate process.
 */
package dev.orderly.testing.net;
