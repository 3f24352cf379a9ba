package dev.orderly.engine;

import dev.orderly.api.Engine;
import dev.orderly.api.EngineConfig;
import dev.orderly.engine.internal.OrderlyEngine;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The way in: makes an {@link Engine} that runs requests on virtual threads, one structured scope per request,
 * launching jobs in launch order through a {@link LaunchQueue} (or, with {@code ordered=false}, the unordered
 * baseline).
 *
 * <pre>{@code
 * Engine engine = Orderly.engine(EngineConfig.defaults());
 * RequestResult result = engine.run(Request.of(plan, tier2, outputs, (segment, output) -> write(output)));
 * }</pre>
 *
 * <p>An engine is immutable and thread-safe; many requests may run on one engine at once.
 *
 * <p>Runs on any JDK from 21 on, with no {@code --enable-preview}. Each request runs in one request scope, chosen once
 * per JVM: on JDK 25 with {@code --enable-preview} one built on {@code StructuredTaskScope}, elsewhere one built on
 * plain JDK 21 virtual threads, with the same rules. The system property {@code orderly.scope} forces one:
 * {@code auto} (the default), {@code structured} or {@code threads}. The choice is logged once at DEBUG.
 */
public final class Orderly {

    private static final Logger LOG = LoggerFactory.getLogger(Orderly.class);

    private Orderly() {
    }

    /**
     * An engine with {@code config}.
     *
     * @throws IllegalArgumentException if the system property {@code orderly.scope} is not {@code auto},
     *     {@code structured} or {@code threads}
     * @throws IllegalStateException if it is {@code structured} and this JVM can not load that scope (it needs JDK 25
     *     with {@code --enable-preview})
     */
    public static Engine engine(EngineConfig config) {
        return new OrderlyEngine(Objects.requireNonNull(config, "config"));
    }

    /**
     * An engine configured from the environment ({@link EngineConfig#fromEnvironment} of {@code System.getenv()}).
     * A variable that looks meant for Orderly but is not one it reads (a typo) is logged at WARN, naming the closest
     * one it reads ({@link EngineConfig#environmentWarnings}).
     *
     * @throws IllegalArgumentException naming the variable and its value when one is out of range or unparsable
     */
    public static Engine engine() {
        Map<String, String> env = System.getenv();
        EngineConfig config = EngineConfig.fromEnvironment(env);
        // A mistyped variable is not an error (nothing reads it), but silently ignoring it hides the setting's loss.
        EngineConfig.environmentWarnings(env).forEach(warning -> LOG.warn("environment: {}", warning));
        return engine(config);
    }
}
