/**
 * The two-sided run: both sides of a Jacobian compressed at once and the entries decompressed from the two
 * ({@code TwoSidedCompression}: the gates, the phases in order, the rounds of locating). One run is a value
 * ({@code TwoSidedRun}: the pattern, the groups, the entries, the screens, what the screen sent back, the located
 * lines) handed to each phase in turn: passes over the rows and columns ({@code RowPass}, {@code ColumnPass}),
 * entries near the tolerance taken at finer steps ({@code FinerSteps}), entries sent back recomputed alone
 * ({@code Recompute}), the ties among the entries left out at kinks judged as wholes ({@code Ties}), the report
 * ({@code Report}), and the lines that explain a disagreement located by halving
 * ({@code Culprits}, {@code LocatedLines}). No phase knows the orchestrator. Full mode tries it first; it stands on
 * the colourings and the dense judge.
 */
package dev.gradcheck.check.twosided;
