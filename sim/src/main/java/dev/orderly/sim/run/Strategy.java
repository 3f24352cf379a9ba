package dev.orderly.sim.run;

/** How a tenant's engine launches its jobs. */
public enum Strategy {
    /** Ordered launch: the launch queue and its dialing window ({@code EngineConfig.ordered = true}). */
    ORDERED,
    /** The baseline: every refused job redials on its own after {@code refusedDelay}, no queue, no window. */
    UNORDERED,
    /**
     * The limit: a perfect central dispatcher hands every free slot at once to the lowest waiting unit of the tenant
     * whose turn it is (round robin); no refusals, no refused delay. The engine runs unordered behind it, so every
     * live job waits at the dispatcher. See {@code OracleDispatcher}.
     */
    ORACLE;

    /** The lower-case name used on the command line and in reports. */
    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
