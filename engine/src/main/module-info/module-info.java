/**
 * The engine: {@code Orderly.engine(...)}, the launch queue and the output stores. Its implementation
 * ({@code dev.orderly.engine.internal}, and the flight-recorder events under it) is not exported.
 */
module dev.orderly.engine {
    requires transitive dev.orderly.api;
    requires org.slf4j;
    requires jdk.jfr;
    exports dev.orderly.engine;
}
