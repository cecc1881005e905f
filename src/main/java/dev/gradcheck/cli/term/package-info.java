/**
 * Internal (no compatibility promise): drawing on the terminal: whether stdout and stderr are terminals and how
 * wide ({@code Terminal}), every write during a run around the status line ({@code Screen}, {@code ProgressLine}),
 * the live table, heat maps and Jacobian numbers. Uses {@code cli.options} only among the command-line rooms.
 */
package dev.gradcheck.cli.term;
