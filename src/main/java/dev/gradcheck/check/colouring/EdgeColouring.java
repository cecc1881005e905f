package dev.gradcheck.check.colouring;

import it.unimi.dsi.fastutil.ints.Int2IntOpenHashMap;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import java.util.Arrays;

/**
 * A least colouring of the edges of a bipartite graph, in as many colours as its largest degree (König's theorem,
 * by alternating paths): the lines of one class are the edges, each joining its two keys (its first input's window
 * and its second's), and lines sharing a key must differ in colour. Each line in order takes the smallest colour
 * free at both its keys; where there is none, the smallest free at its first key, {@code a}, which is taken at its
 * second key, whose smallest free colour is {@code b}:
 * the path from the second key along edges coloured a, b, a, ... swaps those two colours (it cannot reach the
 * first key, which has no edge coloured a and is entered, on its side, only by such edges), and a is then free at
 * both. Colours stay below the largest degree: a key with fewer edges than that has a free colour below it.
 */
final class EdgeColouring {
    private final int[][] keys;
    private final int[] colour;
    /** A key's row in {@link #at}. */
    private final Int2IntOpenHashMap slot = new Int2IntOpenHashMap();
    /** Per key and colour, the line holding it there, or -1. */
    private int[][] at;

    private EdgeColouring(int[][] keys, int[] colour) {
        this.keys = keys;
        this.colour = colour;
    }

    /**
     * Colours the lines of class {@code cls} in {@code colours} colours, the largest degree of their keys, into
     * {@code colour}.
     */
    static void colour(int[][] keys, int[] classOf, int cls, int colours, int[] colour) {
        EdgeColouring c = new EdgeColouring(keys, colour);
        IntArrayList lines = new IntArrayList();
        for (int l = 0; l < keys.length; l++) {
            if (classOf[l] == cls) {
                lines.add(l);
                for (int k : keys[l]) {
                    c.slot.putIfAbsent(k, c.slot.size());
                }
            }
        }
        c.at = new int[c.slot.size()][colours];
        for (int[] row : c.at) {
            Arrays.fill(row, -1);
        }
        for (int i = 0; i < lines.size(); i++) {
            c.add(lines.getInt(i));
        }
    }

    private void add(int l) {
        int u = slot.get(keys[l][0]);
        int v = slot.get(keys[l][1]);
        int a = freeAtBoth(at[u], at[v]);
        if (a < 0) { // none free at both: make u's first free one free at v too
            a = free(at[u]);
            swap(v, a, free(at[v]));
        }
        colour[l] = a;
        at[u][a] = l;
        at[v][a] = l;
    }

    /** The smallest colour free at both keys, or -1 (then a swap makes one so). */
    private static int freeAtBoth(int[] u, int[] v) {
        for (int c = 0; c < u.length; c++) {
            if (u[c] < 0 && v[c] < 0) {
                return c;
            }
        }
        return -1;
    }

    private static int free(int[] taken) {
        for (int c = 0; c < taken.length; c++) {
            if (taken[c] < 0) {
                return c;
            }
        }
        throw new IllegalStateException("a key with more lines than the largest degree");
    }

    /** Swaps colours a and b along the path from key v that begins with its edge coloured a. */
    private void swap(int v, int a, int b) {
        IntArrayList path = new IntArrayList();
        int w = v;
        int c = a;
        while (at[w][c] >= 0) {
            int l = at[w][c];
            path.add(l);
            int first = slot.get(keys[l][0]);
            w = first == w ? slot.get(keys[l][1]) : first;
            c = c == a ? b : a;
        }
        for (int i = 0; i < path.size(); i++) {
            hold(path.getInt(i), -1);
        }
        for (int i = 0; i < path.size(); i++) {
            int l = path.getInt(i);
            colour[l] = colour[l] == a ? b : a;
            hold(l, l);
        }
    }

    /** Marks line l's colour at both its keys as held by {@code holder} (-1: free). */
    private void hold(int l, int holder) {
        at[slot.get(keys[l][0])][colour[l]] = holder;
        at[slot.get(keys[l][1])][colour[l]] = holder;
    }
}
