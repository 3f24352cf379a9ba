package dev.orderly.bench.cost;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * {@code EngineCost --segments=1} printed "ratio CPU hand-written/Orderly NaN (NaN-NaN over 3 rounds)" and a CPU
 * figure of "0.00 us/segment (0.00-10,000.00)": the process's CPU clock counts in ticks (10 ms on Linux), so a run
 * shorter than a tick reads 0 CPU, and the ratio of two such runs is 0/0 (NaN), of one such run x/0 (Infinity) or 0/x.
 * {@code EngineAB} divided the same way. A ratio of a figure too small to measure is not known: "n/a", and the median
 * and range are those of the rounds that measured something.
 */
class ACpuRatioOfARunTooShortToMeasureIsNotKnownNotNaNOrInfinityTest {

    @Test
    void aRatioOfAZeroFigureIsNotKnown() {
        assertEquals("n/a", Comparison.format(Comparison.ratio(0, 0), 3), "0 CPU over 0 CPU");
        assertEquals("n/a", Comparison.format(Comparison.ratio(12.5, 0), 3), "some CPU over 0 CPU");
        assertEquals("n/a", Comparison.format(Comparison.ratio(0, 12.5), 3), "0 CPU over some CPU");
        assertEquals("2.000", Comparison.format(Comparison.ratio(25, 12.5), 3));
    }

    @Test
    void engineAbPrintsTheRatiosOfTheRoundsThatMeasuredSomething() {
        double[] perRound = {Comparison.ratio(20, 10), Comparison.ratio(10, 0), Comparison.ratio(30, 10)};
        assertEquals("2.500 (2.000-3.000) over 2 of 3 rounds", EngineAB.ratios(perRound));
        assertEquals("n/a (no round measurable)", EngineAB.ratios(new double[] {Comparison.ratio(0, 0)}));
    }
}
