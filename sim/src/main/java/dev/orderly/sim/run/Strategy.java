package dev.orderly.sim.run;

/** How a tenant's engine launches its jobs. */
public enum Strategy {
    /** Ordered launch: the launch queue and its dialing window ({@code EngineConfig.ordered = true}). */
    ORDERED,
    /** The baseline: every refused job redials on its own after {@code refusedDelay}, no queue, no window. */
    UNORDERED;

    /** The lower-case name used on the command line and in reports. */
    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
