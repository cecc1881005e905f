package dev.gradcheck.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.Status;
import org.deeplearning4j.nn.conf.NeuralNetConfiguration;
import org.deeplearning4j.nn.conf.inputs.InputType;
import org.deeplearning4j.nn.conf.layers.RnnOutputLayer;
import org.deeplearning4j.nn.conf.layers.recurrent.SimpleRnn;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.junit.jupiter.api.Test;
import org.nd4j.autodiff.samediff.SDVariable;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.lossfunctions.LossFunctions;

/**
 * Masks given through the library API are held to a spec's rules (spec/MaskInputs): 0s and 1s of [batch, steps];
 * any other is the caller's mistake, an IllegalArgumentException saying what is wrong, before anything runs.
 */
class ApiMaskTest {

    private static final INDArray X = Nd4j.rand(DataType.DOUBLE, 2, 3, 5).subi(0.5);
    private static final INDArray GOOD = Nd4j.createFromArray(new double[][] {{1, 1, 1, 1, 1}, {1, 1, 1, 0, 0}});

    private static GradCheck rnnLayer(INDArray mask) {
        return GradCheck.ofLayer("SimpleRnn").attr("nOut", 2).attr("activation", "tanh").input("x", X)
                .input("mask", mask);
    }

    private static MultiLayerNetwork rnnNetwork() {
        MultiLayerNetwork net = new MultiLayerNetwork(new NeuralNetConfiguration.Builder().seed(5)
                .dataType(DataType.DOUBLE).list()
                .layer(new SimpleRnn.Builder().name("rnn").nOut(4).activation(Activation.TANH).build())
                .layer(new RnnOutputLayer.Builder(LossFunctions.LossFunction.MSE).name("out").nOut(2)
                        .activation(Activation.IDENTITY).build())
                .setInputType(InputType.recurrent(3, 5)).build());
        net.init();
        return net;
    }

    private static String refused(GradCheck check) {
        return assertThrows(IllegalArgumentException.class, check::check).getMessage();
    }

    @Test
    void aLayerUnderAMaskOfZerosAndOnesIsChecked() {
        CheckResult r = rnnLayer(GOOD).check();
        assertEquals(Status.PASSED, r.status(), r::message);
    }

    @Test
    void aLayersMaskOtherThanZerosAndOnesOrOfAnotherShapeIsRefused() {
        String half = refused(rnnLayer(GOOD.dup().putScalar(1, 3, 0.5)));
        assertEquals("mask 'mask' holds 0.5: a mask holds 1 for a real step and 0 for padding; give an array of 0s"
                + " and 1s", half);
        String shape = refused(rnnLayer(Nd4j.ones(DataType.DOUBLE, 2, 4)));
        assertEquals("mask 'mask' has shape [2, 4]; masking 'x' [2, 3, 5] it is [batch, steps]: [2, 5 (or 3 in"
                + " NWC)]", shape);
    }

    @Test
    void aNetworksMasksAreCheckedAndABadOneIsRefusedBeforeTheNetworkIsWritten() {
        INDArray labels = Nd4j.rand(DataType.DOUBLE, 2, 2, 5);
        CheckResult r = GradCheck.ofNetwork(rnnNetwork()).input("x", X).input("labels", labels).input("mask", GOOD)
                .input("labels_mask", GOOD).check();
        assertEquals(Status.PASSED, r.status(), r::message);
        String both = refused(GradCheck.ofNetwork(rnnNetwork()).input("x", X).input("labels", labels)
                .input("mask", GOOD.mul(2)).input("labels_mask", Nd4j.ones(DataType.DOUBLE, 3, 5)));
        assertTrue(both.contains("mask 'mask' holds 2.0"), both);
        assertTrue(both.contains("mask 'labels_mask' has shape [3, 5]; masking 'labels' [2, 2, 5]"), both);
    }

    /** A SameDiff model's placeholders are its own: one named {@code mask} may hold anything. */
    @Test
    void aSameDiffPlaceholderNamedMaskIsTheModelsOwn() {
        SameDiff sd = SameDiff.create();
        SDVariable x = sd.placeHolder("x", DataType.DOUBLE, -1, 3);
        SDVariable mask = sd.placeHolder("mask", DataType.DOUBLE, -1, 3);
        sd.math().mul("y", sd.math().tanh(x), mask);
        CheckResult r = GradCheck.ofNetwork(sd).input("x", Nd4j.rand(DataType.DOUBLE, 2, 3))
                .input("mask", Nd4j.rand(DataType.DOUBLE, 2, 3).addi(0.5)).noGrad("mask").check();
        assertEquals(Status.PASSED, r.status(), r::message);
    }
}
