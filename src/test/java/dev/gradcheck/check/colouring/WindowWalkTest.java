package dev.gradcheck.check.colouring;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The walks over a box of flat indices ({@link WindowPattern#forEach}, {@link WindowPattern#flat}, the runs under
 * both) against the definition: every flat index of the array that {@link WindowPattern#contains} holds, ascending.
 * Random boxes of rank 1 to 4, clipped or wrapping round a dimension (0 … hi, then n + lo … n − 1), empty ones too.
 */
class WindowWalkTest {

    @Test
    void everyWalkGivesTheBoxsIndicesAscendingWrappedOrNot() {
        Random random = new Random(34);
        for (int trial = 0; trial < 2000; trial++) {
            int rank = 1 + random.nextInt(4);
            long[] shape = new long[rank];
            int[][] box = new int[rank][];
            for (int k = 0; k < rank; k++) {
                shape[k] = 1 + random.nextInt(6);
                box[k] = randomInterval(random, (int) shape[k]);
            }
            int[] expected = IntStream.range(0, (int) java.util.Arrays.stream(shape).reduce(1, (a, b) -> a * b))
                    .filter(f -> WindowPattern.contains(box, shape, f)).toArray();
            List<Integer> walked = new ArrayList<>();
            WindowPattern.forEach(box, shape, walked::add);
            String what = java.util.Arrays.deepToString(box) + " in " + java.util.Arrays.toString(shape);
            assertArrayEquals(expected, walked.stream().mapToInt(Integer::intValue).toArray(), what);
            int[] into = new int[expected.length + 3];
            int count = WindowPattern.flat(box, shape, into);
            assertArrayEquals(expected, java.util.Arrays.copyOf(into, count), what);
        }
    }

    /** A clipped interval inside [0, n) (empty one time in ten), or, where n allows, one wrapping round it. */
    private static int[] randomInterval(Random random, int n) {
        if (random.nextInt(10) == 0) {
            return new int[] {1, 0};
        }
        if (n >= 3 && random.nextInt(3) == 0) {
            int hi = random.nextInt(n - 2);
            int lo = -1 - random.nextInt(n - 2 - hi);
            return new int[] {lo, hi};
        }
        int lo = random.nextInt(n);
        return new int[] {lo, lo + random.nextInt(n - lo)};
    }
}
