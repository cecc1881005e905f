/**
 * Colourings and compressed decompression: a sparsity pattern guessed from a few lines ({@code PatternProbe},
 * {@code WindowPattern}), a colouring of its columns or rows into structurally orthogonal groups ({@code Colouring}),
 * one side compressed along the groups and decompressed against the other computed in full
 * ({@code CompressedJacobians}, {@code SparseLines}), and both sides of a target ready for it ({@code Sides}).
 */
package dev.gradcheck.check.colouring;
