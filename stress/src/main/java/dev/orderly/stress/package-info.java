/**
 * jcstress suites for the launch queue's concurrency rules: the window bound, no lost wake-up on a leave, the order of
 * two racing joins, leave idempotence, and an interrupt leaving no entry behind. Two actors (plus an arbiter) at most,
 * so every test can be scheduled on a 2-CPU machine.
 */
package dev.orderly.stress;
