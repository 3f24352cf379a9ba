/**
 * JMH benchmarks of the launch queue against a polling baseline: the no-queue fast path, join and leave at several
 * queue sizes, wake-up latency when the window moves, cancellation of many waiters, and idle waiters' cost.
 */
package dev.orderly.bench.jmh;
