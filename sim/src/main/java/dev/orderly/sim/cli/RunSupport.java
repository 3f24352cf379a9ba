package dev.orderly.sim.cli;

import dev.orderly.sim.fleet.Admission;
import dev.orderly.sim.fleet.FaultRates;
import dev.orderly.sim.fleet.FleetConfig;
import dev.orderly.sim.fleet.TimeScale;
import dev.orderly.sim.run.RunResult;
import dev.orderly.sim.run.RunSpec;
import dev.orderly.sim.run.Scenario;
import dev.orderly.sim.run.SimulationRun;
import dev.orderly.sim.run.Strategy;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/** What every command that runs simulations does around them: a warm-up, and a warning when a run fell behind. */
final class RunSupport {

    private RunSupport() {
    }

    /**
     * A short run of every strategy that is not reported: it loads and compiles the engine's and the fleet's code,
     * so that the first measured run does not pay for it (it would otherwise add tens of wall-clock milliseconds,
     * which the time scale multiplies, to whichever strategy runs first).
     */
    static void warmUp() throws InterruptedException {
        FleetConfig fleet = new FleetConfig(1, 2, Duration.ofSeconds(2), 0.4, FaultRates.NONE, 1,
                new TimeScale(200));
        Scenario small = new Scenario(8, 2, 4, 2, fleet, Duration.ZERO, Duration.ofMillis(100), Duration.ofSeconds(1))
                .withAdmission(Admission.waiting(Duration.ofSeconds(1), 2, 1));
        for (Strategy s : Strategy.values()) {
            new SimulationRun(small, RunSpec.all(s, 2), Duration.ofSeconds(10), p -> { }).run();
        }
    }

    /** "1 stage", "2 stages": for the headings of every command. */
    static String stages(int stages) {
        return count(stages, "stage");
    }

    /** "1 tenant", "4 tenants". */
    static String tenants(int tenants) {
        return count(tenants, "tenant");
    }

    /** "1 segment", "40 segments": a count and its noun, the noun in the singular at one. */
    static String count(long n, String noun) {
        return count(n, noun, noun + "s");
    }

    /** "1 tier2 process", "4 tier2 processes". */
    static String count(long n, String one, String many) {
        return n + " " + (n == 1 ? one : many);
    }

    /** Warns on {@code err} when the run's simulated clock fell behind: its figures then overstate every wait. */
    static void warnIfBehind(PrintWriter err, Scenario scenario, RunSpec run, RunResult result) {
        TimeScale scale = scenario.fleet().timeScale();
        if (result.clock().behind(scale, scenario.resolution())) {
            err.printf(Locale.ROOT, "orderly: warning: the %s run fell behind: its timers woke %.0f ms (simulated) late"
                            + " on average against a %s %s; its times are too long. Use a lower --time-scale"
                            + " (now %s).%n",
                    run.name(), result.clock().meanSimSeconds(scale) * 1000,
                    DurationConverter.format(scenario.resolution()),
                    scenario.resolution().equals(scenario.refusedDelay()) ? "refused delay" : "job duration",
                    scale.factor());
            err.flush();
        }
    }
}
