package dev.gradcheck.check.twosided;

import dev.gradcheck.check.jacobian.JacobianSide;
import dev.gradcheck.check.jacobian.ParallelLines;
import dev.gradcheck.op.Differentiable;
import java.util.List;
import java.util.Map;

/**
 * Evaluates a unit's groups of lines along their weights, a batch at a time (on the run's threads), and hands each
 * result to {@code use} on the calling thread in group order, so that no more than a batch of evaluations is held
 * at once; what {@code use} was handed is given back to the side once it returns ({@code use} keeps none of it), to
 * be handed out again. Stops after the batch in which the screen first sends back what single entries cannot
 * settle: the caller then takes another path.
 */
final class GroupBatches {

    private GroupBatches() {}

    /** Takes group g's evaluation: one vector per cross unit. */
    @FunctionalInterface
    interface Use {
        void accept(int group, Map<String, double[]> values);
    }

    /** A unit's groups of lines on one side, with each group's weights. */
    record Groups(JacobianSide side, String unit, int[][] lines, double[][] weights) {}

    static void run(Groups groups, int batch, TwoSidedScreen screen, ParallelLines threads, Use use) {
        for (int from = 0; from < groups.lines().length && screen.clean(); from += batch) {
            int count = Math.min(batch, groups.lines().length - from);
            List<Map<String, double[]>> results = threads.run(count, new Batch(groups, from));
            for (int k = 0; k < count; k++) {
                use.accept(from + k, results.get(k));
                groups.side().giveBack(results.get(k));
                results.set(k, null);
            }
        }
    }

    private record Batch(Groups groups, int from) implements ParallelLines.Evaluator<Map<String, double[]>> {
        @Override
        public Map<String, double[]> evaluate(int task) {
            return groups.side().evaluate(groups.unit(), groups.lines()[from + task], groups.weights()[from + task]);
        }

        @Override
        public Batch copy(ParallelLines.Copies copies) {
            return new Batch(new Groups(groups.side().copy(copies), groups.unit(), groups.lines(), groups.weights()),
                    from);
        }

        @Override
        public List<Differentiable> functions() {
            return groups.side().functions();
        }
    }
}
