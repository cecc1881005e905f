/**
 * Internal (no compatibility promise, beyond the engine id {@code gradcheck} and the configuration keys of
 * docs/library-api.md): a JUnit Platform engine that runs spec files from a project's tests. Discovery turns the
 * request's selectors into one container per file and one test per spec; execution is one run of run/'s
 * {@code RunSession} in worker JVMs, whose results a {@code RunListener} reports as JUnit events. No ND4J here:
 * the test JVM never loads it, and a crashing or hanging op costs one worker, not the test JVM.
 */
package dev.gradcheck.junit;
