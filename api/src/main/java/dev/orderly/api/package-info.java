/**
 * The types an embedder codes against: a request ({@link Request}, {@link RequestPlan}), the transport contract to the
 * tier2 fleet ({@link Tier2Client}, {@link Tier2Call}, {@link Tier2Exception}), where outputs are read from
 * ({@link OutputStore}), the client that reads them in order ({@link SegmentConsumer}), and the {@link Engine}
 * that runs it all with an {@link EngineConfig}.
 *
 * <p>Records and interfaces with validation only; no behaviour hides here, and nothing outside the JDK is used. The
 * implementation is {@code dev.orderly.engine.Orderly}. How a request moves through the engine, and which class keeps
 * which rule: {@code docs/ARCHITECTURE.md} in the repository.
 *
 * <h2>Memory consistency</h2>
 * Actions of a tier2 job before its {@link Tier2Call#await()} returns happen-before the engine's
 * {@link OutputStore#read} of that segment; each {@link SegmentConsumer#accept} happens-before the next; every action
 * of a request happens-before {@link Engine#run} returns or throws. Each type states its part.
 */
package dev.orderly.api;
