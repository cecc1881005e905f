package dev.gradcheck.backend.nd4j;

import dev.gradcheck.check.GraphAwareChecker;
import dev.gradcheck.op.LayerSpecs;
import dev.gradcheck.op.NetworkLayers;
import dev.gradcheck.op.NetworkScore;
import dev.gradcheck.result.CheckKind;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.JacobianCapture;
import dev.gradcheck.result.NodeFinding;
import dev.gradcheck.result.Status;
import dev.gradcheck.spec.Expectation;
import dev.gradcheck.spec.InvalidSpecException;
import dev.gradcheck.spec.MemoryBudget;
import dev.gradcheck.spec.OpSpec;
import dev.gradcheck.spec.SpecError;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A network spec's check: each layer (and each other vertex of a graph) checked as a spec at the activations the
 * forward pass gave it ({@link NetworkLayers}), their rows together in one result, and one {@link NodeFinding} per
 * layer or vertex (its index, name and type) so that a wrong one is named as a graph's wrong node is; a skipped
 * one (a FrozenLayer) is a finding with its reason.
 */
final class NetworkCheck {

    private NetworkCheck() {}

    /**
     * @param loader where the layers' types are found: gradcheck's classes, or the plugin paths' too
     * @param budget what the whole network's score check may plan to use ({@link NetworkScore})
     */
    static CheckResult run(GraphAwareChecker checker, OpSpec spec, JacobianCapture capture, String engine,
                           ClassLoader loader, MemoryBudget budget) {
        long start = System.nanoTime();
        List<NetworkLayers.Layer> layers;
        try {
            layers = NetworkLayers.of(spec, loader);
        } catch (InvalidSpecException e) {
            return result(spec, engine, new Outcome(Status.INVALID, String.join("\n", e.errors().stream()
                    .map(SpecError::toString).toList())), List.of(), List.of(), start);
        }
        List<GradientResult> rows = new ArrayList<>();
        List<NodeFinding> nodes = new ArrayList<>();
        String message = null;
        for (NetworkLayers.Layer layer : layers) {
            if (layer.skipped() != null) { // said in the report, never a reason for the network to fail
                nodes.add(new NodeFinding(layer.index(), layer.type(), layer.name(), spec.pos().toString(),
                        Status.SKIPPED, null, layer.skipped()));
                continue;
            }
            CheckResult r = checker.check(LayerSpecs.withParams(layer.spec(), loader), capture);
            rows.addAll(r.gradients());
            nodes.add(new NodeFinding(layer.index(), layer.type(), layer.name(), spec.pos().toString(), r.status(),
                    worst(r), r.message()));
            if (message == null && r.status() != Status.PASSED) {
                message = layer.describe() + " is wrong"
                        + (r.message() == null ? "" : ": " + r.message());
            }
        }
        List<Status> statuses = new ArrayList<>(nodes.stream().map(NodeFinding::status).toList());
        if (NetworkScore.applies(spec)) {
            CheckResult whole = wholeNetwork(spec, loader, new GraphAwareChecker((s, in) -> NetworkScore.of(spec,
                    loader), engine, budget), capture);
            rows.addAll(whole.gradients());
            statuses.add(whole.status());
            if (message == null && whole.status() != Status.PASSED) {
                message = "the network's score gradient (every layer's backward together) is wrong"
                        + (whole.message() == null ? "" : ": " + whole.message());
            }
        }
        Status status = NetworkLayers.status(statuses);
        return result(spec, engine, new Outcome(expected(status, spec.expect()), message), rows, nodes, start);
    }

    /**
     * The network's score as a function of all its parameter arrays, checked in the spec's (fast) mode: one row
     * per array, {@code dscore/d0_W}, DL4J's key for it.
     */
    private static CheckResult wholeNetwork(OpSpec spec, ClassLoader loader, GraphAwareChecker checker,
                                            JacobianCapture capture) {
        try {
            return checker.check(NetworkScore.of(spec, loader).spec(), capture);
        } catch (InvalidSpecException e) { // loaded once already for the layers: what changed is reported as such
            return new CheckResult(spec.name(), spec.pos().toString(), "network score", "", "", Status.INVALID,
                    spec.expect().kind().specName(), null, String.join("\n", e.errors().stream()
                    .map(SpecError::toString).toList()), List.of(), "", 0, 0);
        }
    }

    /**
     * A network expected to fail (a known bug in one of its layers) or to error (a layer DL4J cannot run) ends as a
     * one-op spec would.
     */
    static Status expected(Status status, Expectation expect) {
        Status expectedOutcome = switch (expect.kind()) {
            case PASS -> Status.PASSED;
            case FAIL -> Status.FAILED;
            case ERROR -> Status.ERROR;
        };
        if (expect.kind() == Expectation.Kind.PASS || (status != expectedOutcome && status != Status.PASSED)) {
            return status;
        }
        return status == Status.PASSED ? Status.UNEXPECTED_PASS
                : expect.kind() == Expectation.Kind.FAIL ? Status.EXPECTED_FAIL : Status.EXPECTED_ERROR;
    }

    static GradientResult worst(CheckResult r) {
        return r.gradients().stream().filter(g -> g.kind() == CheckKind.JACOBIAN)
                .max(Comparator.comparingDouble(GradientResult::maxScore)).orElse(null);
    }

    /** A network's status, and the message naming its first wrong layer (or why it could not be checked). */
    record Outcome(Status status, String message) {}

    static CheckResult result(OpSpec spec, String engine, Outcome outcome, List<GradientResult> rows,
                                      List<NodeFinding> nodes, long start) {
        double seconds = (System.nanoTime() - start) / 1e9;
        String dtype = spec.inputs().isEmpty() ? "" : spec.inputs().get(0).dtype().specName();
        return new CheckResult(spec.name(), spec.pos().toString(), spec.op().value(), engine, dtype, outcome.status(),
                spec.expect().kind().specName(), spec.expect().reason(), outcome.message(), List.copyOf(rows), "", 0,
                seconds)
                .withNodes(List.copyOf(nodes), seconds);
    }
}
