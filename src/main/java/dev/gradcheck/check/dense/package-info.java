/**
 * The dense judge: one block of entries judged by the one rule, with kinks probed at the most precise step
 * ({@code BlockJudge}), ties judged across inputs ({@code TieCheck}), a failing block diagnosed
 * ({@code BlockDiagnosis}) and a spec's mask applied ({@code BlockMask}). Stands on the numerics alone.
 */
package dev.gradcheck.check.dense;
