/**
 * Scale runs: whole requests through the public API against an in-process fleet, with the heap watched, to show that
 * memory is bounded by the look-ahead and not by the request's length.
 */
package dev.orderly.bench.scale;
