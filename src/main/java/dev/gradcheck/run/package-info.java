/**
 * Internal (no compatibility promise): a run of many checks. {@code RunConfiguration} says what to run,
 * {@code RunSession} runs it on an {@code backend.EnginePool} the caller owns and tells {@code RunListener}s what
 * happens. No ND4J here.
 */
package dev.gradcheck.run;
