/**
 * Internal (no compatibility promise): one check of a spec. This room keeps what ties the modes to a spec: the checker
 * ({@code GradientChecker}, {@code GraphAwareChecker}), the modes by name ({@code CheckModes}), the sanity rows, second
 * order and forward-mode rows, and the inputs drawn for a check. The work is done in the rooms below, each using only
 * those beneath it (docs/ARCHITECTURE.md, "Inside check/"): {@code fast}, {@code full}, {@code twosided},
 * {@code colouring}, {@code dense}, {@code jacobian} and {@code target}, {@code numeric}. Results leave as
 * {@code result} records. Knows nothing of how checks are dispatched (backend/, run/) or shown (report/, cli/). The
 * front end uses only {@code Unfinished} (the result of a check that produced none), which reaches no ND4J: the
 * architecture test follows its links.
 */
package dev.gradcheck.check;
