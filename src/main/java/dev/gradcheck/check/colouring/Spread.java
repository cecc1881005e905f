package dev.gradcheck.check.colouring;

import java.util.BitSet;

/**
 * Where one probed row's nonzeros lie in one input: per dimension the lowest and highest index and every index
 * that holds one. Its own file because both {@link PatternProbe} and {@link Wraps} read it, and neither may depend
 * on the other both ways (ArchitectureTest: no class cycles inside check/'s rooms).
 */
record Spread(int[] lo, int[] hi, BitSet[] held) {}
