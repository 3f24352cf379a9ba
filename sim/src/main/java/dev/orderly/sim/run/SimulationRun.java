package dev.orderly.sim.run;

import dev.orderly.api.Engine;
import dev.orderly.api.Request;
import dev.orderly.api.RequestFailedException;
import dev.orderly.api.RequestListener;
import dev.orderly.api.RequestResult;
import dev.orderly.api.Tier2Client;
import dev.orderly.engine.Orderly;
import dev.orderly.sim.fleet.OracleDispatcher;
import dev.orderly.sim.fleet.SimulatedFleet;
import dev.orderly.sim.fleet.SimulatedTier2;
import dev.orderly.sim.fleet.TenantDoor;
import dev.orderly.sim.fleet.TenantFleet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * Runs one {@link RunSpec} of a {@link Scenario}: a fresh fleet, one engine per strategy, and every tenant's request
 * at once, each on its own virtual thread, all competing for the fleet's slots. Blocks until every request has ended.
 *
 * <p>Interrupting the caller cancels the run: every tenant's thread is interrupted (which cancels its request) and
 * the run returns, by throwing {@link InterruptedException}, only after all of them have ended.
 */
public final class SimulationRun {

    private final Scenario scenario;
    private final RunSpec spec;
    private final Duration progressPeriod;
    private final Consumer<ProgressSample> progress;
    private final UnaryOperator<RequestListener> observer;
    private final Function<Scenario, TenantFleet> fleets;

    /**
     * @param scenario what every run shares
     * @param spec this run's tenants and their strategies
     * @param progressPeriod how often (wall-clock) to report progress
     * @param progress receives a sample every period, and one last one at the end
     */
    public SimulationRun(Scenario scenario, RunSpec spec, Duration progressPeriod, Consumer<ProgressSample> progress) {
        this(scenario, spec, progressPeriod, progress, UnaryOperator.identity());
    }

    /**
     * A run whose every request also reports to what {@code observer} makes of the run's own listener (e.g. metrics
     * that then pass each event on to it); called once per tenant request.
     */
    public SimulationRun(Scenario scenario, RunSpec spec, Duration progressPeriod, Consumer<ProgressSample> progress,
            UnaryOperator<RequestListener> observer) {
        this(scenario, spec, progressPeriod, progress, observer,
                s -> new SimulatedFleet(s.fleet(), s.admission().seats()));
    }

    /**
     * A run as above whose tenants send their jobs to the fleet {@code fleets} opens for it (a real one, for
     * instance), instead of a fresh simulated fleet.
     */
    public SimulationRun(Scenario scenario, RunSpec spec, Duration progressPeriod, Consumer<ProgressSample> progress,
            UnaryOperator<RequestListener> observer, Function<Scenario, TenantFleet> fleets) {
        if (spec.tenants() != scenario.tenants()) {
            throw new IllegalArgumentException("the run has " + spec.tenants() + " tenants, the scenario "
                    + scenario.tenants());
        }
        if (spec.tenantStrategies().contains(Strategy.ORACLE)
                && !spec.tenantStrategies().stream().allMatch(s -> s == Strategy.ORACLE)) {
            throw new IllegalArgumentException("the oracle dispatches every slot of the fleet: every tenant of its"
                    + " run must use it");
        }
        if (scenario.segments() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("segments must be <= " + Integer.MAX_VALUE + " for the simulator, was "
                    + scenario.segments());
        }
        this.scenario = scenario;
        this.spec = spec;
        this.progressPeriod = progressPeriod;
        this.progress = progress;
        this.observer = observer;
        this.fleets = fleets;
    }

    /** Runs every tenant's request to its end and returns what happened. */
    public RunResult run() throws InterruptedException {
        TenantFleet fleet = fleets.apply(scenario);
        // The oracle is a dispatcher inside the simulated fleet: a real fleet (./orderly fleet) has none.
        OracleDispatcher oracle = fleet instanceof SimulatedFleet simulated ? new OracleDispatcher(simulated) : null;
        Map<Strategy, Engine> engines = new EnumMap<>(Strategy.class);
        for (Strategy s : spec.tenantStrategies()) {
            engines.computeIfAbsent(s, k -> Orderly.engine(scenario.engineConfig(k)));
        }
        int n = spec.tenants();
        long origin = System.nanoTime();
        List<TenantRecorder> recorders = new ArrayList<>(n);
        List<Tenant> tenants = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            String name = RunSpec.tenantName(i);
            Strategy strategy = spec.tenantStrategies().get(i);
            TenantDoor tier2 = strategy == Strategy.WAITING ? waitingDoor(fleet, name)
                    : fleet.tenant(name, scenario.stages());
            TenantRecorder recorder = new TenantRecorder(name, strategy, (int) scenario.segments(),
                    scenario.stages(), origin);
            SimulatedClient client = new SimulatedClient(tier2, recorder, scenario.fleet().timeScale(),
                    scenario.clientTime());
            Tier2Client dialer = strategy == Strategy.ORACLE ? oracleDoor(oracle, tier2) : tier2.tier2();
            Request request = new Request(name, scenario.plan(), dialer, tier2.outputs(), client,
                    observer.apply(recorder));
            recorders.add(recorder);
            tenants.add(new Tenant(engines.get(strategy), request, recorder));
        }

        PeriodicSampler sampler = new PeriodicSampler("progress-" + spec.name(), progressPeriod,
                () -> progress.accept(sample(fleet, recorders, origin)));
        ClockProbe probe = new ClockProbe();
        sampler.start();
        probe.start();
        tenants.forEach(Tenant::start);
        try {
            for (Tenant t : tenants) {
                t.thread.join();
            }
        } catch (InterruptedException e) {
            tenants.forEach(t -> t.thread.interrupt());
            joinUninterruptibly(tenants);
            probe.cancel();
            sampler.stop();
            throw e;
        }
        long wall = System.nanoTime() - origin;
        ClockLateness clock = probe.stop();
        sampler.stop();

        List<TenantResult> results = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            Tenant t = tenants.get(i);
            results.add(new TenantResult(recorders.get(i).snapshot(wall), Optional.ofNullable(t.result),
                    Optional.ofNullable(t.failure)));
        }
        return new RunResult(spec, results, fleet.stats(), wall, scenario.fleet().timeScale(), clock);
    }

    /** A door whose dials wait in the fleet's waiting rooms (the simulated fleet's, or real tier2s' with a room). */
    private TenantDoor waitingDoor(TenantFleet fleet, String name) {
        if (!scenario.admission().hasRoom()) {
            throw new IllegalArgumentException(Strategy.WAITING.label() + " needs a fleet with a waiting room"
                    + " (admission 'wait')");
        }
        return fleet.waitingTenant(name, scenario.stages(), scenario.admission().maxWait(),
                scenario.admission().waitAt());
    }

    private static Tier2Client oracleDoor(OracleDispatcher oracle, TenantDoor door) {
        if (oracle == null || !(door instanceof SimulatedTier2 simulated)) {
            throw new IllegalArgumentException("the oracle strategy runs on the simulated fleet only");
        }
        return oracle.tenant(simulated);
    }

    private ProgressSample sample(TenantFleet fleet, List<TenantRecorder> recorders, long origin) {
        long delivered = 0;
        long refusals = 0;
        int queued = 0;
        int dialing = 0;
        int running = 0;
        for (TenantRecorder r : recorders) {
            TenantRecorder.Live live = r.live();
            delivered += live.delivered();
            refusals += live.refusals();
            queued += live.queued();
            dialing += live.dialing();
            running += live.running();
        }
        return new ProgressSample(spec.name(), scenario.fleet().timeScale().toSimSeconds(System.nanoTime() - origin),
                delivered, scenario.segments() * recorders.size(), queued, dialing, running, refusals,
                fleet.stats().busy(), scenario.fleet().capacity());
    }

    private static void joinUninterruptibly(List<Tenant> tenants) {
        boolean interrupted = false;
        for (Tenant t : tenants) {
            while (true) {
                try {
                    t.thread.join();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * One tenant's request on its own virtual thread. {@code result} and {@code failure} are written by that thread
     * before it ends and read only after {@link Thread#join()}, which orders the two.
     */
    private static final class Tenant {
        final Engine engine;
        final Request request;
        final TenantRecorder recorder;
        final Thread thread;
        RequestResult result;
        String failure;

        Tenant(Engine engine, Request request, TenantRecorder recorder) {
            this.engine = engine;
            this.request = request;
            this.recorder = recorder;
            this.thread = Thread.ofVirtual().name(request.id()).unstarted(this::run);
        }

        void start() {
            thread.start();
        }

        private void run() {
            try {
                result = engine.run(request);
            } catch (RequestFailedException e) {
                failure = e.getMessage();
            } catch (InterruptedException e) {
                failure = "cancelled";
                Thread.currentThread().interrupt();
            } catch (RuntimeException e) {
                failure = "engine error: " + e;
            } finally {
                recorder.requestEnded(failure == null);
            }
        }
    }
}
