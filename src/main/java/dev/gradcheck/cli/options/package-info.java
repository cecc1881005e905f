/**
 * Internal (no compatibility promise): what a command is given and what it answers with: picocli option mixins
 * and converters, the project file ({@code --config}) and the workspace a command runs in, the exit codes
 * ({@code ExitCode}, and {@code ExitCodeHelp}, which each command answers for its --help) and the version. The
 * bottom of the command-line rooms: it uses none of them. No ND4J here.
 */
package dev.gradcheck.cli.options;
