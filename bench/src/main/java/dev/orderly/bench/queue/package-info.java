/**
 * The queues under benchmark behind the engine's dialing interface, {@code DialGate}: the real {@code LaunchQueue}
 * and a polling queue in the style of the original change (every waiter re-checks on a timer and scans for its
 * position), which is not part of the library. {@code QueueKind} makes either and reads its figures.
 */
package dev.orderly.bench.queue;
