/**
 * The numerics every room of check/ stands on: finite differences and their stencils ({@code FiniteDifferences},
 * {@code Step}, {@code NumericalDerivative}), the most precise step ({@code MostPreciseStep}), kinks
 * ({@code KinkDetector}), the one per-entry rule and its bounds ({@code JacobianComparison}, {@code NumericalError},
 * {@code EntryFilter}), the blocks they judge ({@code Jacobian}, {@code SparseBlock}), and the plain helpers they use
 * (flat arrays, seeded draws, evaluation counters, the clock). Knows no target, mode or colouring.
 */
package dev.gradcheck.check.numeric;
