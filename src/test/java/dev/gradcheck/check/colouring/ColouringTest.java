package dev.gradcheck.check.colouring;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The one first-fit colouring, against first fit written out pair by pair; and where it is made exact. */
class ColouringTest {

    @Test
    void groupsAreFirstFitOverSharedPositions() {
        Random random = new Random(11);
        for (int trial = 0; trial < 200; trial++) {
            int lines = 1 + random.nextInt(40);
            int positions = 1 + random.nextInt(30);
            int[][] supports = new int[lines][];
            for (int l = 0; l < lines; l++) {
                TreeSet<Integer> s = new TreeSet<>();
                for (int k = random.nextInt(4); k > 0; k--) {
                    s.add(random.nextInt(positions));
                }
                supports[l] = s.stream().mapToInt(Integer::intValue).toArray();
            }
            assertArrayEquals(pairByPair(supports, new int[lines]), Colouring.groups(supports, positions),
                    "trial " + trial);
        }
    }

    @Test
    void aClassOfLinesWithTwoInputsKeysTakesAsManyColoursAsTheMostLinesOnAKeyAndNoneShareOne() {
        Random random = new Random(5);
        for (int trial = 0; trial < 200; trial++) {
            int left = 1 + random.nextInt(12);
            int lines = 1 + random.nextInt(60);
            int[][] keys = new int[lines][];
            for (int l = 0; l < lines; l++) { // left keys below 12, right ones from 12 on: a bipartite multigraph
                keys[l] = new int[] {random.nextInt(left), 12 + random.nextInt(1 + random.nextInt(12))};
            }
            int[] degree = Colouring.degrees(keys, 24);
            int[] classOf = new int[lines];
            int[] colour = Colouring.tightened(keys, degree, Colouring.firstFit(keys, degree), classOf);
            int most = java.util.Arrays.stream(degree).max().orElse(0);
            assertEquals(most, java.util.Arrays.stream(colour).max().orElse(-1) + 1, "trial " + trial);
            for (int l = 0; l < lines; l++) {
                for (int m = 0; m < l; m++) {
                    boolean share = keys[l][0] == keys[m][0] || keys[l][1] == keys[m][1];
                    assertTrue(!share || colour[l] != colour[m], "trial " + trial + ": lines " + m + ", " + l);
                }
            }
        }
    }

    @Test
    void firstFitOverPositionsAndChannelsTakesMoreColoursThanTheLeastWhichTheTighteningReaches() {
        // rows (position, channel) of 10 positions under 4 channels in the order a convolution's rows come: first
        // fit gives row (p, c) colour p + c where p's channels began on other colours, the least is 10
        int[][] keys = new int[40][];
        for (int c = 0; c < 4; c++) {
            for (int p = 0; p < 10; p++) {
                keys[c * 10 + p] = new int[] {p, 10 + c};
            }
        }
        int[] degree = Colouring.degrees(keys, 14);
        int[] firstFit = Colouring.firstFit(keys, degree);
        assertEquals(12, java.util.Arrays.stream(firstFit).max().getAsInt() + 1);
        int[] tight = Colouring.tightened(keys, degree, firstFit, new int[40]);
        assertEquals(10, java.util.Arrays.stream(tight).max().getAsInt() + 1);
        assertEquals(10, Colouring.byClassAndColour(tight, new int[40]).length);
    }

    @Test
    void linesOfDifferentClassesNeverShareAGroup() {
        int[][] keys = {{0}, {1}, {0}, {2}};
        int[] classOf = {0, 1, 0, 1};
        int[][] groups = Colouring.byClassAndColour(Colouring.firstFit(keys, Colouring.degrees(keys, 3)), classOf);
        // lines 0 and 2 share key 0, so take colours 0 and 1; lines 1 and 3 share no key and take colour 0, in a
        // group of their class's own
        assertArrayEquals(new int[][] {{0}, {1, 3}, {2}}, groups);
    }

    /** First fit by brute force: each line joins the first group of its class with no line sharing a position. */
    private static int[][] pairByPair(int[][] supports, int[] classOf) {
        List<List<Integer>> groups = new ArrayList<>();
        for (int line = 0; line < supports.length; line++) {
            int l = line;
            List<Integer> home = null;
            for (List<Integer> g : groups) {
                if (classOf[g.get(0)] == classOf[l] && g.stream().noneMatch(o -> shares(supports[o], supports[l]))) {
                    home = g;
                    break;
                }
            }
            if (home == null) {
                home = new ArrayList<>();
                groups.add(home);
            }
            home.add(l);
        }
        return groups.stream().map(g -> g.stream().mapToInt(Integer::intValue).toArray()).toArray(int[][]::new);
    }

    private static boolean shares(int[] a, int[] b) {
        for (int x : a) {
            for (int y : b) {
                if (x == y) {
                    return true;
                }
            }
        }
        return false;
    }
}
