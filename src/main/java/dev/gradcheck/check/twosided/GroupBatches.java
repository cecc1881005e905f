package dev.gradcheck.check.twosided;

import dev.gradcheck.check.jacobian.JacobianSide;
import dev.gradcheck.check.jacobian.ParallelLines;
import dev.gradcheck.op.Differentiable;
import java.util.List;
import java.util.Map;

/**
 * Evaluates a unit's groups of lines along their weights, a batch at a time (on the run's threads), and hands each
 * result to {@code use} on the calling thread in group order, as soon as it and those before it are done, while the
 * helper threads evaluate the batch's next ({@link ParallelLines#run(int, ParallelLines.Evaluator,
 * ParallelLines.InOrder)}), so that no more than a batch of evaluations is held at once; what {@code use} was handed is given back to the side once it returns ({@code use} keeps none of it), to
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

    /** Takes group g's evaluation, of the kind its {@link Evaluation} makes. */
    @FunctionalInterface
    interface UseOf<R> {
        void accept(int group, R values);
    }

    /** What one group's evaluation is, and how what {@code use} was handed goes back to the side that made it. */
    interface Evaluation<R> {
        R of(JacobianSide side, String unit, int[] lines, double[] weights);

        void giveBack(JacobianSide side, R values);
    }

    /** A side's own evaluation: one vector per cross unit. */
    private static final Evaluation<Map<String, double[]>> VECTORS = new Evaluation<>() {
        @Override
        public Map<String, double[]> of(JacobianSide side, String unit, int[] lines, double[] weights) {
            return side.evaluate(unit, lines, weights);
        }

        @Override
        public void giveBack(JacobianSide side, Map<String, double[]> values) {
            side.giveBack(values);
        }
    };

    /** A unit's groups of lines on one side, with each group's weights. */
    record Groups(JacobianSide side, String unit, int[][] lines, double[][] weights) {}

    /** @return how many groups were evaluated and handed to {@code use}: all of them unless the screen stopped it */
    static int run(Groups groups, int batch, TwoSidedScreen screen, ParallelLines threads,
                    Use use) {
        return run(groups, VECTORS, batch, screen, threads, use::accept);
    }

    /** @return how many groups were evaluated and handed to {@code use}: all of them unless the screen stopped it */
    static <R> int run(Groups groups, Evaluation<R> evaluation, int batch, TwoSidedScreen screen,
                        ParallelLines threads, UseOf<R> use) {
        int from = 0;
        for (; from < groups.lines().length && screen.clean(); from += batch) {
            int count = Math.min(batch, groups.lines().length - from);
            int first = from;
            threads.run(count, new Batch<>(groups, evaluation, from), (k, result) -> { // as each is done, in order
                use.accept(first + k, result);
                evaluation.giveBack(groups.side(), result);
            });
        }
        return Math.min(from, groups.lines().length);
    }

    private record Batch<R>(Groups groups, Evaluation<R> evaluation, int from)
            implements ParallelLines.Evaluator<R> {
        @Override
        public R evaluate(int task) {
            return evaluation.of(groups.side(), groups.unit(), groups.lines()[from + task],
                    groups.weights()[from + task]);
        }

        @Override
        public Batch<R> copy(ParallelLines.Copies copies) {
            return new Batch<>(new Groups(groups.side().copy(copies), groups.unit(), groups.lines(), groups.weights()),
                    evaluation, from);
        }

        @Override
        public List<Differentiable> functions() {
            return groups.side().functions();
        }
    }
}
