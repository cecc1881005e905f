/**
 * Whole Jacobians line by line: the numerical side (columns, by finite differences), the analytic side (rows, by
 * backward passes), both evaluable along weighted lines for compression ({@code JacobianSide}), and the threads that
 * compute lines in parallel ({@code ParallelLines}). Stands on the numerics alone.
 */
package dev.gradcheck.check.jacobian;
