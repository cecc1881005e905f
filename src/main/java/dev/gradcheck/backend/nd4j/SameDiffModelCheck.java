package dev.gradcheck.backend.nd4j;

import dev.gradcheck.check.GraphAwareChecker;
import dev.gradcheck.op.NetworkLayers;
import dev.gradcheck.op.SameDiffModel;
import dev.gradcheck.op.SameDiffNodes;
import dev.gradcheck.op.SameDiffWholeModel;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.JacobianCapture;
import dev.gradcheck.result.NodeFinding;
import dev.gradcheck.result.Status;
import dev.gradcheck.spec.InvalidSpecException;
import dev.gradcheck.spec.MemoryBudget;
import dev.gradcheck.spec.OpSpec;
import dev.gradcheck.spec.SpecError;
import java.util.ArrayList;
import java.util.List;

/**
 * A network spec naming a saved SameDiff model: each op node checked as a one-op spec at the values the model's
 * forward pass gave it ({@link SameDiffModel}), through a checker whose functions are the model's own ops; the
 * nodes' rows together in one result and one {@link NodeFinding} per node (its op and variables), as
 * {@link NetworkCheck} does for a DL4J network's layers.
 */
final class SameDiffModelCheck {

    private SameDiffModelCheck() {}

    static CheckResult run(OpSpec spec, MemoryBudget budget, JacobianCapture capture, String engine) {
        long start = System.nanoTime();
        SameDiffModel model;
        List<SameDiffNodes.Node> nodes;
        try {
            model = SameDiffModel.load(spec);
            nodes = model.nodes();
        } catch (InvalidSpecException e) {
            return NetworkCheck.result(spec, engine, new NetworkCheck.Outcome(Status.INVALID, String.join("\n",
                    e.errors().stream().map(SpecError::toString).toList())), List.of(), List.of(), start);
        }
        GraphAwareChecker checker = new GraphAwareChecker(model::function, engine, budget);
        List<GradientResult> rows = new ArrayList<>();
        List<NodeFinding> findings = new ArrayList<>();
        String message = null;
        for (SameDiffNodes.Node node : nodes) {
            CheckResult r = checker.check(node.spec(), capture);
            rows.addAll(r.gradients());
            findings.add(new NodeFinding(node.index(), node.op(), String.join(", ", node.out()),
                    spec.network().pos().toString(), r.status(), NetworkCheck.worst(r), r.message()));
            if (message == null && r.status() != Status.PASSED) {
                message = node.describe() + " is wrong" + (r.message() == null ? "" : ": " + r.message());
            }
        }
        List<Status> statuses = new ArrayList<>(findings.stream().map(NodeFinding::status).toList());
        if (SameDiffWholeModel.applies(spec)) {
            CheckResult whole = wholeModel(spec, budget, capture, engine);
            rows.addAll(whole.gradients());
            statuses.add(whole.status());
            if (message == null && whole.status() != Status.PASSED) {
                message = "the model's whole gradient (every op's backward together) is wrong"
                        + (whole.message() == null ? "" : ": " + whole.message());
            }
        }
        Status status = NetworkLayers.status(statuses);
        return NetworkCheck.result(spec, engine, new NetworkCheck.Outcome(NetworkCheck.expected(status,
                spec.expect()), message), rows, findings, start);
    }

    /**
     * The model's outputs as a function of its trainable variables ({@link SameDiffWholeModel}), in the spec's
     * fast mode: one row per output and variable, {@code dy/dw1}. A model with no trainable variable has none.
     */
    private static CheckResult wholeModel(OpSpec spec, MemoryBudget budget, JacobianCapture capture,
                                          String engine) {
        SameDiffWholeModel.Whole whole;
        try {
            whole = SameDiffWholeModel.of(spec);
        } catch (InvalidSpecException e) { // loaded once already for the nodes
            return NetworkCheck.result(spec, engine, new NetworkCheck.Outcome(Status.INVALID, String.join("\n",
                    e.errors().stream().map(SpecError::toString).toList())), List.of(), List.of(), System.nanoTime());
        }
        if (whole == null) {
            return NetworkCheck.result(spec, engine, new NetworkCheck.Outcome(Status.PASSED, null), List.of(),
                    List.of(), System.nanoTime());
        }
        return new GraphAwareChecker((s, in) -> whole.function(), engine, budget).check(whole.spec(), capture);
    }
}
