/**
 * Full mode: every Jacobian block of a target, settled by the two-sided run where it can, by one side compressed,
 * or by dense blocks line by line, each judged as the dense judge judges ({@code FullCheck}).
 */
package dev.gradcheck.check.full;
