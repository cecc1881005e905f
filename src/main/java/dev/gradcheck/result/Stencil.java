package dev.gradcheck.result;

import java.util.List;
import java.util.Optional;

/** The finite-difference formula for the numerical derivative; the formulas themselves live in check/. */
public enum Stencil implements Named {
    /** (f(x+δ) − f(x−δ)) / 2δ: error O(δ²). */
    CENTRAL,
    /** Four points at ±δ, ±2δ: error O(δ⁴). */
    FIVE_POINT,
    /** Central differences at δ, δ/2, δ/4 combined by Richardson extrapolation: error O(δ⁶). */
    RICHARDSON;

    @Override
    public String specName() {
        return Named.of(this);
    }

    public static Optional<Stencil> fromSpecName(String text) {
        return Named.parse(Stencil.class, text);
    }

    public static List<String> specNames() {
        return Named.names(Stencil.class);
    }
}
