package dev.orderly.sim.cli;

import dev.orderly.sim.run.ProgressSample;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * Prints a run's progress: on a terminal one line rewritten in place ({@code \r}), elsewhere (a pipe, a CI log) a
 * plain line per sample. Samples come from one thread at a time (the run's sampler, then the run's caller after the
 * sampler has ended), so the width of the last line needs no lock.
 */
final class ProgressPrinter implements Consumer<ProgressSample> {

    private final PrintWriter out;
    private final boolean terminal;
    private int lastWidth;

    ProgressPrinter(PrintWriter out, boolean terminal) {
        this.out = out;
        this.terminal = terminal;
    }

    @Override
    public void accept(ProgressSample p) {
        String line = String.format(Locale.ROOT,
                "  %-9s %6.1fs  delivered %d/%d  running %d/%d  queued %d  dialing %d  refusals %d",
                p.run(), p.simSeconds(), p.delivered(), p.totalSegments(), p.fleetBusy(), p.fleetCapacity(),
                p.queued(), p.dialing(), p.refusals());
        if (terminal) {
            out.print("\r" + line + " ".repeat(Math.max(0, lastWidth - line.length())));
            lastWidth = line.length();
        } else {
            out.println(line);
        }
        out.flush();
    }

    /** Ends the in-place line, if any. */
    void finish() {
        if (terminal && lastWidth > 0) {
            out.println();
            out.flush();
        }
        lastWidth = 0;
    }
}
