/**
 * Internal (no compatibility promise): the report formats ({@code ReportFormat}, one renderer each) over
 * {@code result} records. No ND4J here.
 */
package dev.gradcheck.report;
