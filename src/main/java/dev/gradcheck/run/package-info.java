/**
 * Internal (no compatibility promise): a run of many checks. {@code RunConfiguration} says what to run,
 * {@code RunSession} runs it on an {@code backend.EnginePool} the caller owns and tells {@code RunListener}s what
 * happens; {@code RunHost} is where a command's run gets its engines and hears Ctrl-C. No ND4J here.
 */
package dev.gradcheck.run;
