package dev.gradcheck.check;

import dev.gradcheck.spec.InvalidSpecException;
import dev.gradcheck.spec.OpSpec;
import dev.gradcheck.spec.SpecLoader;

/** Specs for tests, written as YAML exactly as a user would. */
public final class Specs {

    private Specs() {}

    static OpSpec valid(dev.gradcheck.spec.LoadedSpec loaded) {
        try {
            return loaded.specOrThrow();
        } catch (InvalidSpecException e) {
            throw new IllegalArgumentException("test spec is invalid: " + e.errors(), e);
        }
    }

    public static OpSpec parse(String yaml) {
        try {
            return new SpecLoader().loadText("test.yaml", "test", yaml).get(0).specOrThrow();
        } catch (InvalidSpecException e) {
            throw new IllegalArgumentException("test spec is invalid: " + e.errors(), e);
        }
    }
}
