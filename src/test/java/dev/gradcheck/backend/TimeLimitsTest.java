package dev.gradcheck.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gradcheck.spec.LoadedSpec;
import dev.gradcheck.spec.OpSpec;
import dev.gradcheck.spec.SpecLoader;
import org.junit.jupiter.api.Test;

class TimeLimitsTest {

    private static OpSpec spec(String extra) {
        LoadedSpec loaded = new SpecLoader().loadText("t.yaml", "t", "op: tanh\ninputs: {x: {shape: [2]}}\n" + extra)
                .get(0);
        return loaded.spec();
    }

    @Test
    void theSpecWinsThenTheCommandLineThenTheDefault() {
        assertEquals(new TimeLimits.Limit(2, "the spec's timeout"), new TimeLimits(9.0).of(spec("timeout: 2\n")));
        assertEquals(new TimeLimits.Limit(9, "--timeout"), new TimeLimits(9.0).of(spec("")));
        assertEquals(TimeLimits.DEFAULT_SECONDS, new TimeLimits(null).of(spec("")).seconds());
        assertEquals(2500, new TimeLimits(2.5).of(spec("")).millis());
    }
}
