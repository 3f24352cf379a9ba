/**
 * Runs jcstress and fails the build unless the run's own summary shows a non-zero number of tests and no failure or
 * error: jcstress alone exits 0 when no test matched or a test could not be scheduled.
 */
package dev.orderly.stress.runner;
