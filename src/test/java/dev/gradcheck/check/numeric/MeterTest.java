package dev.gradcheck.check.numeric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class MeterTest {

    @Test
    void countsOnlyWhatItsCounterSawSinceItStarted() {
        Counter evaluations = new Counter();
        evaluations.add(5);
        Meter meter = Meter.counting(evaluations::value);
        evaluations.add(3);
        Meter.Cost cost = meter.cost();
        assertEquals(3, cost.evaluations(), "the 5 before the step belong to another step");
        assertTrue(cost.seconds() >= 0, "a time: " + cost.seconds());
    }

    @Test
    void aTimingMeterCountsNoEvaluations() {
        Meter meter = Meter.timing();
        assertEquals(0, meter.cost().evaluations());
        assertEquals(1, meter.cost().plusEvaluations(1).evaluations(), "a backward pass added by its caller");
    }

    @Test
    void aRowCostsTheSumOfItsSteps() {
        Meter.Cost projection = new Meter.Cost(2, 0.5);
        Meter.Cost backward = new Meter.Cost(1, 0.25);
        Meter.Cost judging = new Meter.Cost(12, 0.125);
        assertEquals(new Meter.Cost(15, 0.875), projection.plus(backward).plus(judging));
    }
}
