/**
 * The queues under benchmark behind one interface: the real {@code LaunchQueue} and a polling queue in the style of the
 * original change (every waiter re-checks on a timer and scans for its position), which is not part of the library.
 */
package dev.orderly.bench.queue;
