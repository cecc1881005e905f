/**
 * Internal (no compatibility promise): the command line's entry point ({@code Main}) and its commands, one picocli
 * class each (check, validate, explain, list-ops, bench, coverage, merge, completion). Those that read specs,
 * reports or ops share {@code AbstractCommand}'s lifecycle (start, validate, configure, execute); every command says
 * the exit codes its --help lists. A command turns its options into a {@code run.RunConfiguration}, runs it and
 * listens to it. The rooms below it: {@code cli.shell} (the interactive shell), {@code cli.output} (what a run
 * writes: reports, exit policy), {@code cli.term} (terminal drawing), {@code cli.options} (option mixins,
 * converters, the project file, exit codes). No ND4J here.
 */
package dev.gradcheck.cli;
