package dev.gradcheck.check;

import dev.gradcheck.op.Differentiable;
import dev.gradcheck.op.Nd4jOpBuilder;
import dev.gradcheck.op.catalog.OpCatalog;
import dev.gradcheck.spec.MemoryBudget;
import dev.gradcheck.spec.OpSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.nd4j.linalg.api.ndarray.INDArray;

/** Scratch: runs the two-sided path on a spec file and prints what it found. */
public final class TwoSidedProbeMain {
    private static Map<String, long[]> shapes(Map<String, INDArray> in, List<String> names) {
        Map<String, long[]> m = new java.util.HashMap<>();
        names.forEach(n -> m.put(n, in.get(n).shape()));
        return m;
    }

    public static void main(String[] args) throws Exception {
        OpSpec spec = Specs.parse(Files.readString(Path.of(args[0])));
        Settings s = Settings.of(spec);
        DrawnInputs x = DrawnInputs.draw(spec, s.seed());
        try (Differentiable f = new Nd4jOpBuilder(OpCatalog.nd4j()).build(spec, x.test());
             ParallelLines threads = new ParallelLines(s.threads())) {
            Map<String, INDArray> atX = f.forward(x.test());
            List<String> outputs = OutputSelection.select(spec, f.outputNames(), atX);
            CheckTarget t = new CheckTarget(1, f, f, x.test(), x.reference(), spec.check(), outputs, atX, atX);
            FullCheck.Sides sides = FullCheck.sides(t, s, spec.check());
            String out = outputs.get(0);
            long t0 = System.nanoTime();
            WindowPattern p = PatternProbe.guess(sides.analytic(), out, atX.get(out).shape(), spec.check(),
                    shapes(x.reference(), spec.check()));
            long tg = System.nanoTime();
            int rg = p.rowGroups().length;
            long tr = System.nanoTime();
            int cg = 0;
            for (WindowPattern.Input in : p.inputs()) {
                cg += WindowPattern.columnGroups(in).length;
            }
            long tc = System.nanoTime();
            long bytes = TwoSidedCompression.bytes(p, 2);
            long tb = System.nanoTime();
            System.out.printf("guess %.2fs rowGroups %d %.2fs colGroups %d %.2fs bytes %d %.2fs%n", (tg - t0) / 1e9, rg,
                    (tr - tg) / 1e9, cg, (tc - tr) / 1e9, bytes, (tb - tc) / 1e9);
            long t1 = System.nanoTime();
            TwoSidedCompression.Attempt a = TwoSidedCompression.attempt(t, s, spec.check(), threads,
                    MemoryBudget.UNLIMITED,
                    TwoSidedCompression.Gate.ALWAYS);
            long t2 = System.nanoTime();
            System.out.println("declined=" + a.declined() + " rowGroups=" + a.rowGroups() + " flag="
                    + (a.screen() == null ? null : a.screen().first()) + " seconds=" + (t2 - t1) / 1e9);
            if (a.rows() != null) {
                a.rows().forEach(r -> System.out.println(r.input() + " " + r.verdict() + " evals=" + r.evaluations()
                        + " score=" + r.maxScore()));
            }
        }
    }
}
