/**
 * Internal (no compatibility promise): what a run writes and how it ends: the report listener, {@code --output}
 * ({@code ReportWriter}), stdout as the report channel, {@code merge}'s reading back, {@code --durations}, and the
 * exit policy. Uses {@code cli.term} and {@code cli.options} among the command-line rooms.
 */
package dev.gradcheck.cli.output;
