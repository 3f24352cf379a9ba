package dev.orderly.sim.run;

/** How a tenant's engine launches its jobs. */
public enum Strategy {
    /** Ordered launch: the launch queue and its dialing window ({@code EngineConfig.ordered = true}). */
    ORDERED("ordered"),
    /** The baseline: every refused job redials on its own after {@code refusedDelay}, no queue, no window. */
    UNORDERED("unordered"),
    /**
     * The limit: a perfect central dispatcher hands every free slot at once to the lowest waiting unit of the tenant
     * whose turn it is (round robin); no refusals, no refused delay. The engine runs unordered behind it, so every
     * live job waits at the dispatcher. See {@code OracleDispatcher}.
     */
    ORACLE("oracle"),
    /**
     * Ordered launch whose dials wait in the fleet's waiting rooms: a full instance holds the dial and hands it the
     * next slot that frees there (fewest running tenant first, its lowest segment) instead of refusing it at once.
     * The launch window still bounds how many of a request's jobs dial, so how many wait. See {@code Admission}.
     */
    WAITING("ordered + waiting room");

    private final String label;

    Strategy(String label) {
        this.label = label;
    }

    /** The name used in reports: lower case, the run's name when every tenant uses it. */
    public String label() {
        return label;
    }

    /** Whether the engine uses ordered launch (the launch queue and its window). */
    public boolean ordered() {
        return this == ORDERED || this == WAITING;
    }
}
