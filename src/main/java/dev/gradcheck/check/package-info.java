/**
 * Internal (no compatibility promise): the numerical and analytic Jacobians, their comparison, and one class per
 * checking mode behind {@code CheckMode}; results leave as {@code result} records. Knows nothing of how checks are
 * dispatched (backend/, run/) or shown (report/, cli/).
 */
package dev.gradcheck.check;
