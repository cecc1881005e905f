/**
 * Internal (no compatibility promise): the picocli commands, one class each; exit codes ({@code ExitCode});
 * stdout kept for reports. A command turns its options into a {@code run.RunConfiguration} and listens to the run.
 * No ND4J here.
 */
package dev.gradcheck.cli;
