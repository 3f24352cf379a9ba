package dev.orderly.sim.cli;

import dev.orderly.sim.run.RunSpec;
import dev.orderly.sim.run.Strategy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** The values of {@code --strategy}: which runs of the scenario the command makes, in the order they run. */
enum StrategyChoice {
    /** Every tenant with ordered launch. */
    ORDERED,
    /** Every tenant with the unordered baseline. */
    UNORDERED,
    /** Every tenant served by a perfect central dispatcher: the limit no client-side strategy can beat. */
    ORACLE,
    /** Every tenant with ordered launch whose dials wait in the fleet's waiting rooms; needs --admission=wait. */
    WAITING,
    /** Ordered, then unordered. */
    BOTH,
    /**
     * One ordered tenant among unordered ones; needs two tenants or more. With a waiting room the ordered tenant's
     * dials wait in it.
     */
    MIXED,
    /** Ordered, unordered, oracle, ordered + waiting room (when the fleet has one), then mixed. */
    ALL;

    /** The name written on the command line. */
    String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Whether this choice includes the mixed run (which needs two tenants or more). */
    boolean includesMixed() {
        return this == MIXED || this == ALL;
    }

    /**
     * Whether one of this choice's runs has its dials wait in the waiting room (as its {@link #runs} say).
     *
     * @param room whether the fleet has a waiting room
     */
    boolean runsTheRoom(boolean room) {
        return this == WAITING || (room && includesMixed());
    }

    /**
     * The runs of this choice for {@code tenants} tenants, in order.
     *
     * @param room whether the fleet has a waiting room: it adds the waiting room's run to {@link #ALL}, and the mixed
     *     run's ordered tenant waits in it
     */
    List<RunSpec> runs(int tenants, boolean room) {
        List<RunSpec> runs = new ArrayList<>();
        if (this == ORDERED || this == BOTH || this == ALL) {
            runs.add(RunSpec.all(Strategy.ORDERED, tenants));
        }
        if (this == UNORDERED || this == BOTH || this == ALL) {
            runs.add(RunSpec.all(Strategy.UNORDERED, tenants));
        }
        if (this == ORACLE || this == ALL) {
            runs.add(RunSpec.all(Strategy.ORACLE, tenants));
        }
        if (this == WAITING || (this == ALL && room)) {
            runs.add(RunSpec.all(Strategy.WAITING, tenants));
        }
        if (includesMixed()) {
            runs.add(RunSpec.mixed(tenants, room ? Strategy.WAITING : Strategy.ORDERED));
        }
        return runs;
    }

    /** Every label, as the help and the error list them. */
    static String labels() {
        return Arrays.stream(values()).map(StrategyChoice::label).collect(Collectors.joining(", "));
    }

    /** Reads a value in any case; an unknown one is refused as every choice is, with the closest strategy. */
    static final class Converter extends Choices.Converter<StrategyChoice> {
        Converter() {
            super(StrategyChoice.class, "a strategy");
        }
    }
}
