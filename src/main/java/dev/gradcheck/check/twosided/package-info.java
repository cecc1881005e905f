/**
 * The two-sided run: both sides of a Jacobian compressed at once and the entries decompressed from the two
 * ({@code TwoSidedCompression}), in passes over the columns and rows ({@code ColumnPass}, {@code RowPass}), entries
 * near the tolerance taken at finer steps ({@code FinerSteps}), and the lines that explain a disagreement located by
 * halving ({@code Culprits}, {@code LocatedLines}). Full mode tries it first; it stands on the colourings and the
 * dense judge.
 */
package dev.gradcheck.check.twosided;
