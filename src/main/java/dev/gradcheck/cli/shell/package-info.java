/**
 * Internal (no compatibility promise): {@code gradcheck shell}: the line reader, its verbs and completer, the spec
 * being edited, and the warm engines every run of a session shares. The commands at its prompt come from a
 * {@code CommandTree} the entry point hands in, so the shell never reaches up to {@code cli}.
 */
package dev.gradcheck.cli.shell;
