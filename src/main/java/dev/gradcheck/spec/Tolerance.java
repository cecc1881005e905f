package dev.gradcheck.spec;

/**
 * When an analytic value {@code a} is close enough to a numerical value {@code n}. The one comparison helper of
 * the project: {@link #score} is the error divided by what the rule allows, so {@code score <= 1} passes.
 */
public sealed interface Tolerance {

    /** |n| below this counts as "small" in Paddle's rule, and the denominator becomes 1. */
    double PADDLE_SMALL = 1e-3;

    double score(double analytic, double numerical);

    /** The largest |analytic − numerical| the rule allows at this numerical value. */
    double allowance(double numerical);

    /** The rule as reports show it: {@code max_relative_error=1.0E-6}, {@code atol=1.0E-5, rtol=0.001}. */
    String describe();

    /** Paddle's check_grad rule: |a - n| / d <= max, with d = |n|, or d = 1 where |n| < 1e-3. */
    record MaxRelative(double maxRelativeError) implements Tolerance {
        @Override
        public double score(double analytic, double numerical) {
            return relativeError(analytic, numerical) / maxRelativeError;
        }

        @Override
        public double allowance(double numerical) {
            return maxRelativeError * (Math.abs(numerical) < PADDLE_SMALL ? 1 : Math.abs(numerical));
        }

        @Override
        public String describe() {
            return "max_relative_error=" + maxRelativeError;
        }
    }

    /**
     * Paddle's rule with its own floor: |a - n| / max(|n|, scale) <= max. Fast mode's default for a projection
     * vᵀJu, whose terms (vᵀJ)ᵢ·uᵢ have the root sum of squares {@code scale}: a projection cancels to well below
     * its terms, where Paddle's fixed floor (an absolute allowance below |n| = 1e-3) would hide a wrong scale.
     */
    record ScaledRelative(double maxRelativeError, double scale) implements Tolerance {
        @Override
        public double score(double analytic, double numerical) {
            double d = Math.max(Math.abs(numerical), scale);
            double err = Math.abs(analytic - numerical);
            if (Double.isNaN(err)) {
                return Double.POSITIVE_INFINITY;
            }
            return d == 0 ? (err == 0 ? 0 : Double.POSITIVE_INFINITY) : err / (maxRelativeError * d);
        }

        @Override
        public double allowance(double numerical) {
            return maxRelativeError * Math.max(Math.abs(numerical), scale);
        }

        @Override
        public String describe() {
            return "max_relative_error=" + maxRelativeError + " of max(|n|, " + scale + ")";
        }
    }

    /** numpy/torch allclose rule: |a - n| <= atol + rtol * |n|. */
    record AllClose(double atol, double rtol) implements Tolerance {
        @Override
        public double score(double analytic, double numerical) {
            double allowed = atol + rtol * Math.abs(numerical);
            double err = Math.abs(analytic - numerical);
            if (Double.isNaN(err)) {
                return Double.POSITIVE_INFINITY;
            }
            if (allowed == 0) {
                return err == 0 ? 0 : Double.POSITIVE_INFINITY;
            }
            return err / allowed;
        }

        @Override
        public double allowance(double numerical) {
            return atol + rtol * Math.abs(numerical);
        }

        @Override
        public String describe() {
            return "atol=" + atol + ", rtol=" + rtol;
        }
    }

    /** The relative error every report shows, whatever the rule: Paddle's denominator. */
    static double relativeError(double analytic, double numerical) {
        double d = Math.abs(numerical);
        if (d < PADDLE_SMALL) {
            d = 1;
        }
        double err = Math.abs(analytic - numerical);
        return Double.isNaN(err) ? Double.POSITIVE_INFINITY : err / d;
    }
}
