package dev.gradcheck.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.spec.OpSpec;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/**
 * {@code gradcheck bench --scaling} counts what a check evaluates. The checker calls a function mostly through its
 * transient forward and VJP, so a count of the copying calls alone read one forward and no backward pass.
 */
class BenchCountingTest {

    @Test
    void aCompressedFullCheckOfAnElementwiseOpCountsOneBackwardPassPerOutputElement() throws Exception {
        BenchCase tanh = BenchCase.SCALING.get(0);
        OpSpec spec = Bench.parse(tanh.yaml());
        long m = spec.input(spec.check().get(0)).length();
        long[] calls = new Bench(1, new PrintWriter(new StringWriter())).calls(spec);
        assertEquals(m, calls[2], "the first output's length");
        assertTrue(calls[1] >= m, "one backward pass per output element at least: " + calls[1]);
        assertTrue(calls[0] >= 2 && calls[0] < m, "a few forwards (the compressed numerical side): " + calls[0]);
    }
}
