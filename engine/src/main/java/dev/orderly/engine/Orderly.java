package dev.orderly.engine;

import dev.orderly.api.Engine;
import dev.orderly.api.EngineConfig;
import dev.orderly.engine.internal.OrderlyEngine;
import java.util.Objects;

/**
 * The way in: makes an {@link Engine} that runs requests on virtual threads, one structured task scope per request,
 * launching jobs in launch order through a {@link LaunchQueue} (or, with {@code ordered=false}, the unordered
 * baseline).
 *
 * <pre>{@code
 * Engine engine = Orderly.engine(EngineConfig.defaults());
 * RequestResult result = engine.run(Request.of(plan, tier2, outputs, (segment, output) -> write(output)));
 * }</pre>
 *
 * <p>An engine is immutable and thread-safe; many requests may run on one engine at once.
 */
public final class Orderly {

    private Orderly() {
    }

    /** An engine with {@code config}. */
    public static Engine engine(EngineConfig config) {
        return new OrderlyEngine(Objects.requireNonNull(config, "config"));
    }

    /**
     * An engine configured from the environment ({@link EngineConfig#fromEnvironment} of {@code System.getenv()}).
     *
     * @throws IllegalArgumentException naming the variable and its value when one is out of range or unparsable
     */
    public static Engine engine() {
        return engine(EngineConfig.fromEnvironment(System.getenv()));
    }
}
