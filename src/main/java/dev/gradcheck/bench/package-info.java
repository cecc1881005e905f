/**
 * Internal (no compatibility promise): {@code gradcheck bench}, what a check costs, through the in-process engine.
 */
package dev.gradcheck.bench;
