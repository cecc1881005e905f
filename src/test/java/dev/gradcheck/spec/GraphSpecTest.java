package dev.gradcheck.spec;

import static dev.gradcheck.spec.SpecFiles.assertError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Graph specs: what loads, and every graph mistake found before running, at its line:col. */
class GraphSpecTest {

    @TempDir
    Path dir;

    SpecFiles files;

    @BeforeEach
    void setUp() {
        files = new SpecFiles(dir);
    }

    @Test
    void aGraphLoadsWithItsNodesInDependencyOrderAndOpGraph() {
        OpSpec spec = files.loadValid("g.yaml", """
                graph:
                  - {op: add, in: [x, a], out: y}
                  - op: tanh
                    in: [h]
                    out: a
                    error_clip: {max: 0.5}
                  - {op: matmul, in: [x, w], out: h, attrs: {transX: 0}}
                inputs:
                  x: {shape: [2, 2], error_clip: {min: -1, max: 2}}
                  w: {shape: [2, 2]}
                output: y
                """);
        assertEquals("graph", spec.op().value());
        assertEquals(List.of("h", "a", "y"), spec.graph().nodes().stream().map(n -> n.out().value()).toList());
        assertEquals(List.of(3, 2, 1), spec.graph().nodes().stream().map(GraphNode::number).toList());
        assertEquals("y", spec.graph().output());
        ErrorClip tanhClip = spec.graph().producer("a").errorClip();
        assertEquals(-0.5, tanhClip.lower(), "min defaults to -max");
        assertNull(tanhClip.min());
        assertEquals(-1.0, spec.graph().inputClips().get("x").lower());
        assertEquals(List.of("x", "w"), spec.check());
        assertEquals(0L, spec.graph().producer("h").attrs().get("transX").value());
    }

    @Test
    void outputDefaultsToTheOneNodeNoOtherNodeReadsWhateverTheWrittenOrder() {
        OpSpec spec = files.loadValid("g.yaml", """
                graph:
                  - {op: cos, in: [s], out: y}
                  - {op: sin, in: [x], out: s}
                inputs:
                  x: {shape: [2]}
                """);
        assertEquals("y", spec.graph().output());
    }

    @Test
    void severalUnreadOutsWithoutOutputAreAnErrorAtTheGraphKey() {
        List<SpecError> errors = files.loadErrors("g.yaml", """
                inputs:
                  x: {shape: [2]}
                graph:
                  - {op: sin, in: [x], out: s}
                  - {op: cos, in: [x], out: c}
                  - {op: tanh, in: [s], out: t}
                """);
        assertEquals(1, errors.size(), errors.toString());
        assertError(errors, 3, 1, "the graph has 2 nodes whose out no other node reads (c, t); name the one to"
                + " check with 'output:'");
    }

    @Test
    void unknownNameIsReportedWhereItIsReadWithASuggestion() {
        List<SpecError> errors = files.loadErrors("g.yaml", """
                graph:
                  - op: matmul
                    in: [x, w]
                    out: hidden
                  - op: tanh
                    in: [hiden]
                    out: y
                inputs:
                  x: {shape: [2, 2]}
                  w: {shape: [2, 2]}
                """);
        assertError(errors, 6, 10, "unknown name 'hiden' in node 2 (tanh, out=y) (did you mean 'hidden'?)");
    }

    @Test
    void cycleIsReportedAtItsFirstNode() {
        List<SpecError> errors = files.loadErrors("g.yaml", """
                graph:
                  - {op: tanh, in: [x], out: t}
                  - {op: add, in: [t, b], out: a}
                  - {op: sin, in: [a], out: b}
                  - {op: cos, in: [a], out: y}
                inputs:
                  x: {shape: [2]}
                """);
        assertEquals(1, errors.size(), SpecFiles.render(errors));
        assertError(errors, 3, 5, "cycle in the graph: a -> b -> a (node 2 (add, out=a) depends on its own out)");
    }

    @Test
    void nodeReadingItsOwnOutIsACycle() {
        List<SpecError> errors = files.loadErrors("g.yaml", """
                graph:
                  - {op: add, in: [x, y], out: y}
                inputs:
                  x: {shape: [2]}
                """);
        assertError(errors, 2, 5, "cycle in the graph: y -> y");
    }

    @Test
    void unusedNodesAndInputsAreErrors() {
        List<SpecError> errors = files.loadErrors("g.yaml", """
                graph:
                  - {op: tanh, in: [x], out: t}
                  - {op: sin, in: [u], out: dead}
                  - {op: cos, in: [t], out: y}
                inputs:
                  x: {shape: [2]}
                  u: {shape: [2]}
                  v: {shape: [2]}
                output: y
                """);
        assertError(errors, 3, 5, "node 2 (sin, out=dead) is unused: output 'y' does not depend on it");
        assertError(errors, 7, 3, "input 'u' is unused");
        assertError(errors, 8, 3, "input 'v' is unused");
        assertEquals(3, errors.size(), SpecFiles.render(errors));
    }

    @Test
    void namesMustBeDefinedOnce() {
        List<SpecError> errors = files.loadErrors("g.yaml", """
                graph:
                  - {op: tanh, in: [x], out: x}
                  - {op: sin, in: [x], out: s}
                  - {op: cos, in: [x], out: s}
                inputs:
                  x: {shape: [2]}
                """);
        assertError(errors, 2, 30, "'x' is already an input");
        assertError(errors, 4, 29, "'s' is already the out of node 2 (sin, out=s)");
    }

    @Test
    void outputMustBeOneNodesOut() {
        assertError(files.loadErrors("g.yaml", """
                graph:
                  - {op: tanh, in: [x], out: t}
                inputs:
                  x: {shape: [2]}
                output: x
                """), 5, 9, "output 'x' is an input; a graph's output must be a node's out");
        assertError(files.loadErrors("g.yaml", """
                graph:
                  - {op: tanh, in: [x], out: t}
                inputs:
                  x: {shape: [2]}
                output: tt
                """), 5, 9, "output 'tt' is not a node's out (did you mean 't'?)");
    }

    @Test
    void nodeKeysAreCheckedLikeSpecKeys() {
        List<SpecError> errors = files.loadErrors("g.yaml", """
                graph:
                  - {op: tanh, inn: [x], out: t}
                  - op: sin
                    in: []
                inputs:
                  x: {shape: [2]}
                """);
        assertError(errors, 2, 16, "unknown key 'inn' in 'graph[0]' (did you mean 'in'?)");
        assertError(errors, 2, 5, "'graph[0]' is missing required key 'in'");
        assertError(errors, 3, 5, "'graph[1]' is missing required key 'out'");
        assertError(errors, 4, 9, "'graph[1].in' must name at least one variable");
    }

    @Test
    void errorClipNeedsMinBelowMaxCountingTheDefault() {
        List<SpecError> errors = files.loadErrors("g.yaml", """
                graph:
                  - {op: tanh, in: [x], out: t, error_clip: {max: -1}}
                  - {op: sin, in: [t], out: y, error_clip: {min: 0.5, max: 0.2, maxx: 1}}
                inputs:
                  x: {shape: [2]}
                """);
        assertError(errors, 2, 45, "'graph[0].error_clip' needs min < max, got min 1.0, max -1.0 (min defaults"
                + " to -max)");
        assertError(errors, 3, 65, "unknown key 'maxx' in 'graph[1].error_clip' (did you mean 'max'?)");
    }

    @Test
    void errorClipMustContainZeroOnNodesAndInputs() {
        List<SpecError> errors = files.loadErrors("g.yaml", """
                graph:
                  - {op: tanh, in: [x], out: t, error_clip: {min: 0.1, max: 0.5}}
                  - {op: sin, in: [t], out: y, error_clip: {min: 0, max: 0.5}}
                inputs:
                  x: {shape: [2], error_clip: {min: -0.5, max: -0.1}}
                """);
        assertEquals(2, errors.size(), errors.toString()); // [0, 0.5] contains 0: accepted
        assertError(errors, 2, 45, "'graph[0].error_clip' must contain 0 (min <= 0 <= max), got min 0.1, max 0.5:"
                + " a zero gradient has to stay zero");
        assertError(errors, 5, 31, "'inputs.x.error_clip' must contain 0 (min <= 0 <= max), got min -0.5,"
                + " max -0.1: a zero gradient has to stay zero");
    }

    @Test
    void graphExcludesOpAndAttrsAndOnlyGraphsTakeInputClips() {
        List<SpecError> errors = files.loadErrors("g.yaml", """
                op: tanh
                attrs: {a: 1}
                graph:
                  - {op: tanh, in: [x], out: t}
                inputs:
                  x: {shape: [2]}
                """);
        assertError(errors, 1, 1, "'op' does not go with 'graph'");
        assertError(errors, 2, 1, "'attrs' does not go with 'graph'");
        assertError(files.loadErrors("g.yaml", """
                op: tanh
                inputs:
                  x: {shape: [2], error_clip: {max: 1}}
                """), 3, 19, "'error_clip' on input 'x' needs a graph spec");
    }
}
