package dev.gradcheck.spec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.result.Engine;
import dev.gradcheck.result.Mode;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SpecLoaderValidTest {

    @TempDir
    Path dir;

    SpecFiles files;

    @BeforeEach
    void setUp() {
        files = new SpecFiles(dir);
    }

    @Test
    void everyModeOfTheEnumIsReadAsItself() {
        for (Mode m : Mode.values()) {
            OpSpec spec = files.loadValid(m.specName() + ".yaml", "op: tanh\nmode: " + m.specName()
                    + "\ninputs: {x: {shape: [2]}}\n");
            assertEquals(m, spec.mode());
        }
    }

    @Test
    void everyKeyIsParsed() {
        OpSpec spec = files.loadValid("full.yaml", """
                name: softmax-rows
                op: softmax
                attrs: {dimension: 1, eps: 1.0e-5, keep: true, how: same, axes: [0, 1]}
                inputs:
                  x:
                    shape: [2, 3]
                    dtype: float32
                    init: {values: [[1, 2, 3], [4, 5, 6]]}
                  w:
                    shape: [3]
                    init: {normal: [0, 0.5]}
                  idx:
                    shape: []
                    dtype: int32
                    init: {constant: 2}
                  b:
                    shape: [4]
                    dtype: bfloat16
                    init: {range: [0, 0.25]}
                output: [0, probs]
                check: [x, b]
                no_grad: [w]
                delta: 1.0e-3
                tolerance: {max_relative_error: 1.0e-2}
                mode: full
                order: 1
                backends: [cpu, cuda]
                seed: 42
                expect: fail
                reason: "known bug #12"
                timeout: 2.5
                """);
        String file = dir.resolve("full.yaml").toString();

        assertEquals("softmax-rows", spec.name());
        assertEquals(new SourcePos(file, 1, 1), spec.pos());
        assertEquals(new Located<>("softmax", new SourcePos(file, 2, 5)), spec.op());

        Map<String, Located<Object>> attrs = spec.attrs();
        assertEquals(List.of("dimension", "eps", "keep", "how", "axes"), List.copyOf(attrs.keySet()));
        assertEquals(1L, attrs.get("dimension").value());
        assertEquals(new SourcePos(file, 3, 20), attrs.get("dimension").pos());
        assertEquals(1.0e-5, attrs.get("eps").value());
        assertEquals(Boolean.TRUE, attrs.get("keep").value());
        assertEquals("same", attrs.get("how").value());
        assertEquals(List.of(0L, 1L), attrs.get("axes").value());

        assertEquals(List.of("x", "w", "idx", "b"), spec.inputs().stream().map(InputSpec::name).toList());
        InputSpec x = spec.input("x");
        assertArrayEquals(new long[] {2, 3}, x.shape());
        assertEquals(DType.FLOAT32, x.dtype());
        assertArrayEquals(new double[] {1, 2, 3, 4, 5, 6}, ((Init.Values) x.init()).flat());
        assertEquals(new SourcePos(file, 5, 3), x.pos());
        assertEquals(DType.FLOAT64, spec.input("w").dtype());
        assertEquals(new Init.Normal(0, 0.5), spec.input("w").init());
        assertArrayEquals(new long[0], spec.input("idx").shape());
        assertEquals(1, spec.input("idx").length());
        assertEquals(new Init.Constant(2), spec.input("idx").init());
        assertEquals(new Init.Range(0, 0.25), spec.input("b").init());

        assertEquals(List.of(new Located<>("0", new SourcePos(file, 20, 10)),
                new Located<>("probs", new SourcePos(file, 20, 13))), spec.outputs());
        assertEquals(List.of("x", "b"), spec.check());
        assertEquals(List.of("w"), spec.noGrad());
        assertEquals(1.0e-3, spec.delta());
        assertEquals(new Tolerance.MaxRelative(1.0e-2), spec.tolerance());
        assertEquals(Mode.FULL, spec.mode());
        assertEquals(1, spec.order());
        assertEquals(List.of(Engine.CPU, Engine.CUDA), spec.backends());
        assertEquals(42, spec.seed());
        assertEquals(2.5, spec.timeoutSeconds());
        assertEquals(new Expectation(Expectation.Kind.FAIL, "known bug #12"), spec.expect());
    }

    @Test
    void theDesignBriefsReferenceExampleLoads() {
        OpSpec spec = files.loadValid("design.yaml", """
                name: softmax-rows            # default: file name; several specs per file via `---` documents
                op: softmax                   # an ND4J op name as `list-ops` prints it, or a plugin op
                attrs: {dimension: 1}         # named op attributes
                inputs:
                  x:
                    shape: [4, 7]
                    dtype: float64            # float64 | float32 | float16 | bfloat16 | int32 | int64 | bool
                    init: {uniform: [-2, 2]}  # or {normal: [0, 1]}, {values: [[...]]}, {constant: 0.5}
                output: 0                     # output name or index (multi-output ops)
                check: [x]                    # inputs_to_check; default: every floating input not in no_grad
                no_grad: []
                delta: 1.0e-6                 # finite-difference step
                tolerance: {max_relative_error: 1.0e-6}   # Paddle rule; or {atol: 1e-5, rtol: 1e-3}
                mode: full                    # full Jacobian | fast (v^T J u)
                order: 1                      # 2 = check the gradient of the gradient too
                backends: [cpu]               # cpu, cuda
                seed: 7
                expect: pass                  # or fail / error, with `reason:`
                """);
        assertEquals("softmax-rows", spec.name());
        assertEquals(new Init.Uniform(-2, 2), spec.input("x").init());
        assertEquals(List.of("x"), spec.check());
        assertEquals(1.0e-6, spec.delta());
    }

    @Test
    void leftOutKeysGetTheirDefaults() {
        OpSpec spec = files.loadValid("tanh-defaults.yml", """
                op: tanh
                inputs:
                  x: {shape: [4]}
                  i: {shape: [2], dtype: int64}
                  y: {shape: [2, 2], dtype: float16}
                """);
        assertEquals("tanh-defaults", spec.name());
        assertEquals(DType.FLOAT64, spec.input("x").dtype());
        assertEquals(new Init.Uniform(-1, 1), spec.input("x").init());
        assertEquals(Map.of(), spec.attrs());
        assertEquals(List.of(), spec.outputs());
        assertEquals(List.of("x", "y"), spec.check(), "default check: floating inputs in input order");
        assertEquals(List.of(), spec.noGrad());
        assertNull(spec.delta());
        assertNull(spec.tolerance());
        assertEquals(Mode.FULL, spec.mode());
        assertEquals(1, spec.order());
        assertEquals(List.of(Engine.CPU), spec.backends());
        assertEquals(7, spec.seed());
        assertEquals(Expectation.PASS, spec.expect());
        assertNull(spec.timeoutSeconds(), "the command line's or the default limit applies");
    }

    @Test
    void defaultCheckLeavesOutNoGradInputs() {
        OpSpec spec = files.loadValid("mul.yaml", """
                op: multiply
                inputs:
                  a: {shape: [3]}
                  b: {shape: [3]}
                no_grad: [a]
                """);
        assertEquals(List.of("b"), spec.check());
        assertEquals(List.of("a"), spec.noGrad());
    }

    @Test
    void documentsWithoutNameAreNumberedWhenAFileHasSeveral() {
        List<LoadedSpec> loaded = files.load("ops.yaml", """
                ---
                op: tanh
                inputs: {x: {shape: [2]}}
                ---
                name: sigmoid-small
                op: sigmoid
                inputs: {x: {shape: [2]}}
                ---
                op: relu
                inputs: {x: {shape: [2]}}
                ---
                """);
        assertEquals(3, loaded.size());
        assertTrue(loaded.stream().allMatch(LoadedSpec::isValid), () -> loaded.toString());
        assertEquals(List.of("ops#1", "sigmoid-small", "ops#3"), loaded.stream().map(LoadedSpec::name).toList());
        assertEquals(List.of(2, 5, 9), loaded.stream().map(l -> l.pos().line()).toList());
        assertEquals("relu", loaded.get(2).spec().op().value());
    }

    @Test
    void aSingleDocumentBetweenMarkersIsNamedAfterTheFile() {
        List<LoadedSpec> loaded = files.load("exp.v2.yaml", """
                ---
                op: exp
                inputs: {x: {shape: [2]}}
                ---
                """);
        assertEquals(1, loaded.size());
        assertEquals("exp.v2", loaded.get(0).name());
    }

    @Test
    void emptyFileHasNoSpecs() {
        assertEquals(List.of(), files.load("empty.yaml", "# nothing here yet\n"));
    }

    @Test
    void allcloseToleranceFillsAMissingHalfWithZero() {
        OpSpec spec = files.loadValid("allclose.yaml", """
                op: tanh
                inputs: {x: {shape: [2]}}
                tolerance: {atol: 1e-5}
                """);
        assertEquals(new Tolerance.AllClose(1e-5, 0), spec.tolerance());

        OpSpec both = files.loadValid("allclose2.yaml", """
                op: tanh
                inputs: {x: {shape: [2]}}
                tolerance: {rtol: 1.0e-3, atol: 0}
                """);
        assertEquals(new Tolerance.AllClose(0, 1e-3), both.tolerance());
    }

    @Test
    void scalarShapeTakesAPlainNumberAndBoolInputsTakeBooleans() {
        OpSpec spec = files.loadValid("where.yaml", """
                op: where
                inputs:
                  cond:
                    shape: [3]
                    dtype: bool
                    init: {values: [true, false, 1]}
                  s:
                    shape: []
                    init: {values: -2.5}
                  empty:
                    shape: [2, 0]
                    init:
                      values:
                        - []
                        - []
                no_grad: [empty]
                """);
        assertArrayEquals(new double[] {1, 0, 1}, ((Init.Values) spec.input("cond").init()).flat());
        assertArrayEquals(new double[] {-2.5}, ((Init.Values) spec.input("s").init()).flat());
        assertArrayEquals(new double[0], ((Init.Values) spec.input("empty").init()).flat());
        assertEquals(List.of("s"), spec.check(), "an empty input may be given, but not checked");
    }

    @Test
    void valuesAreFlattenedRowMajor() {
        OpSpec spec = files.loadValid("cube.yaml", """
                op: identity
                inputs:
                  x:
                    shape: [2, 2, 2]
                    init:
                      values:
                        - [[1, 2], [3, 4]]
                        - [[5, 6], [7, 8.5]]
                """);
        assertArrayEquals(new double[] {1, 2, 3, 4, 5, 6, 7, 8.5}, ((Init.Values) spec.input("x").init()).flat());
    }

    @Test
    void outputMayBeASingleIndexOrName() {
        String file = dir.resolve("one.yaml").toString();
        OpSpec byIndex = files.loadValid("one.yaml", """
                op: split
                inputs: {x: {shape: [4]}}
                output: 1
                """);
        assertEquals(List.of(new Located<>("1", new SourcePos(file, 3, 9))), byIndex.outputs());
        OpSpec byName = files.loadValid("two.yaml", """
                op: split
                inputs: {x: {shape: [4]}}
                output: second
                """);
        assertEquals("second", byName.outputs().get(0).value());
    }

    @Test
    void aReasonNextToPassIsIgnored() {
        OpSpec spec = files.loadValid("pass.yaml", """
                op: tanh
                inputs: {x: {shape: [2]}}
                expect: pass
                reason: was broken in M1
                """);
        assertEquals(Expectation.PASS, spec.expect());
    }

    @Test
    void expectErrorKeepsItsReason() {
        OpSpec spec = files.loadValid("err.yaml", """
                op: tanh
                inputs: {x: {shape: [2]}}
                expect: error
                reason: crashes on empty input
                """);
        assertEquals(new Expectation(Expectation.Kind.ERROR, "crashes on empty input"), spec.expect());
    }

    @Test
    void byteOrderMarkIsTolerated() {
        OpSpec spec = files.loadValid("bom.yaml", "\uFEFFop: tanh\ninputs: {x: {shape: [2]}}\n");
        assertEquals("tanh", spec.op().value());
    }

    @Test
    void specOrThrowHandsBackTheSpec() throws InvalidSpecException {
        List<LoadedSpec> loaded = files.load("ok.yaml", "op: tanh\ninputs: {x: {shape: [2]}}\n");
        assertEquals("tanh", loaded.get(0).specOrThrow().op().value());
    }
}
