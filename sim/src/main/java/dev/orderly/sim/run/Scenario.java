package dev.orderly.sim.run;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.RequestPlan;
import dev.orderly.sim.fleet.Admission;
import dev.orderly.sim.fleet.FleetConfig;
import java.time.Duration;
import java.util.Objects;

/**
 * What every run of a comparison shares: each tenant's request, the fleet, the client, and the engine's retry delays.
 * Every duration is simulated time; {@link FleetConfig#timeScale()} converts it. Immutable.
 *
 * @param segments segments per tenant request, {@code >= 1}
 * @param stages stages per segment, {@code >= 1}
 * @param workers workers per tenant request, {@code >= 1}
 * @param tenants tenant requests running at once on the fleet, {@code >= 1}
 * @param fleet the simulated fleet
 * @param clientTime how long the client takes to read one segment, {@code >= 0}
 * @param refusedDelay the engine's delay before a refused job dials again, {@code >= 0}
 * @param failureDelay the engine's delay before a failed job dials again, {@code >= 0}
 * @param engine the rest of the engine's configuration (window, retry limits, look-ahead); its delays and its
 *     {@code ordered} flag are replaced by the ones above and by each run's strategy
 * @param admission how a full instance answers a dial that asks to wait ({@link Strategy#WAITING} tenants ask)
 */
public record Scenario(long segments, int stages, int workers, int tenants, FleetConfig fleet, Duration clientTime,
                       Duration refusedDelay, Duration failureDelay, EngineConfig engine, Admission admission) {

    /** A scenario whose fleet has no waiting room. */
    public Scenario(long segments, int stages, int workers, int tenants, FleetConfig fleet, Duration clientTime,
                    Duration refusedDelay, Duration failureDelay, EngineConfig engine) {
        this(segments, stages, workers, tenants, fleet, clientTime, refusedDelay, failureDelay, engine,
                Admission.REFUSE);
    }

    /** A scenario with the engine's default window, retry limits and look-ahead. */
    public Scenario(long segments, int stages, int workers, int tenants, FleetConfig fleet, Duration clientTime,
                    Duration refusedDelay, Duration failureDelay) {
        this(segments, stages, workers, tenants, fleet, clientTime, refusedDelay, failureDelay,
                EngineConfig.defaults());
    }

    /**
     * @throws IllegalArgumentException naming the field and the value when one is out of range
     */
    public Scenario {
        Objects.requireNonNull(fleet, "fleet");
        Objects.requireNonNull(clientTime, "clientTime");
        Objects.requireNonNull(refusedDelay, "refusedDelay");
        Objects.requireNonNull(failureDelay, "failureDelay");
        Objects.requireNonNull(engine, "engine");
        Objects.requireNonNull(admission, "admission");
        new RequestPlan(0, segments, stages, workers); // the engine's own checks, with its messages
        if (tenants < 1) {
            throw new IllegalArgumentException("tenants must be >= 1, was " + tenants);
        }
        if (clientTime.isNegative()) {
            throw new IllegalArgumentException("client time must be >= 0, was " + clientTime);
        }
        if (refusedDelay.isNegative()) {
            throw new IllegalArgumentException("refused delay must be >= 0, was " + refusedDelay);
        }
        if (failureDelay.isNegative()) {
            throw new IllegalArgumentException("failure delay must be >= 0, was " + failureDelay);
        }
    }

    /** The same scenario on a fleet that admits as {@code admission} says. */
    public Scenario withAdmission(Admission admission) {
        return new Scenario(segments, stages, workers, tenants, fleet, clientTime, refusedDelay, failureDelay, engine,
                admission);
    }

    /** Each tenant's request plan: segments {@code [0, segments)}. */
    public RequestPlan plan() {
        return new RequestPlan(0, segments, stages, workers);
    }

    /**
     * The shortest delay this scenario models (the refused delay, or the median job duration if shorter): a
     * simulated clock that overshoots it noticeably no longer simulates the scenario.
     */
    public Duration resolution() {
        Duration job = fleet.jobDuration();
        return refusedDelay.isPositive() && refusedDelay.compareTo(job) < 0 ? refusedDelay : job;
    }

    /** The engine configuration for {@code strategy}, with the retry delays converted to wall-clock time. */
    public EngineConfig engineConfig(Strategy strategy) {
        return engine.toBuilder()
                .refusedDelay(fleet.timeScale().toWall(refusedDelay))
                .failureDelay(fleet.timeScale().toWall(failureDelay))
                .ordered(strategy.ordered())
                .build();
    }
}
