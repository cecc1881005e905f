/**
 * Fast mode: per block, the derivative along a random direction of each input and a random cotangent of each output,
 * numerical against analytic ({@code FastCheck}); a disagreeing block probed along its direction for kinks and
 * rounding ({@code FastProbe}); a failing input checked again in full mode.
 */
package dev.gradcheck.check.fast;
