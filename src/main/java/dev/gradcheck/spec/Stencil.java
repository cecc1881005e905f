package dev.gradcheck.spec;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** The finite-difference formula for the numerical derivative; the formulas themselves live in check/. */
public enum Stencil {
    /** (f(x+δ) − f(x−δ)) / 2δ: error O(δ²). */
    CENTRAL,
    /** Four points at ±δ, ±2δ: error O(δ⁴). */
    FIVE_POINT,
    /** Central differences at δ, δ/2, δ/4 combined by Richardson extrapolation: error O(δ⁶). */
    RICHARDSON;

    public String specName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    public static List<String> specNames() {
        return Arrays.stream(values()).map(Stencil::specName).toList();
    }

    public static Stencil fromSpecName(String name) {
        for (Stencil s : values()) {
            if (s.specName().equals(name)) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown stencil '" + name + "'" + Suggestions.choices(name, specNames()));
    }
}
