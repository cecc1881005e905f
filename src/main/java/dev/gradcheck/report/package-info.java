/**
 * Internal (no compatibility promise): the report formats ({@code ReportFormat}, one renderer each) over
 * {@code result} records; each format says what it needs of a run (whether it streams, the Jacobian matrices it
 * draws, how {@code --collect-only} lists specs in it). No ND4J here.
 */
package dev.gradcheck.report;
