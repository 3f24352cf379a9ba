/**
 * The engine's public surface: {@link Orderly} makes an {@link dev.orderly.api.Engine}; {@link LaunchQueue} is one
 * request's launch queue, usable on its own by embedders who drive their own jobs; {@link InMemoryOutputStore} and
 * {@link FileOutputStore} are ready {@link dev.orderly.api.OutputStore}s.
 *
 * <p>This is the only engine package meant for use outside the engine; {@code dev.orderly.engine.internal} may change
 * at any time (an architecture test keeps other modules out of it). The path of one request through the classes and
 * the rules each keeps: {@code docs/ARCHITECTURE.md}.
 */
package dev.orderly.engine;
