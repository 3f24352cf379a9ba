/**
 * The {@code orderly} command: picocli options, their validation (a bad option is one line and exit code 2), the live
 * progress line, and the printing of the report. The only place of the simulator that prints for people.
 */
package dev.orderly.sim.cli;
