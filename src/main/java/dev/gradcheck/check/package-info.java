/**
 * Internal (no compatibility promise): the numerical and analytic Jacobians, their comparison, and one class per
 * checking mode behind {@code CheckMode}; results leave as {@code result} records. Knows nothing of how checks are
 * dispatched (backend/, run/) or shown (report/, cli/). The front end uses only {@code Unfinished} (the result of
 * a check that produced none), which reaches no ND4J: the architecture test follows its links.
 */
package dev.gradcheck.check;
