/**
 * Public API: the plain records a check produces and every report, the library API and worker JVMs exchange
 * ({@code CheckResult}, {@code GradientResult}, {@code Summary}, ...), and the closed vocabularies they and the
 * library speak ({@code Mode}, {@code Stencil}, {@code Engine}, {@code Status}, {@code Verdict}, {@code CheckKind}).
 * A leaf: it depends on the JDK alone (no ND4J, no Jackson annotations, nothing else of gradcheck), so reports can
 * be read back into these records anywhere. What a status means for an exit code is cli/'s business, how it is
 * labelled report/'s.
 */
package dev.gradcheck.result;
