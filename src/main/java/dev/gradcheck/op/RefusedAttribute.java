package dev.gradcheck.op;

import java.util.function.Function;

/**
 * A spec attribute whose value the op's build cannot take (a property ND4J keeps as a boolean given {@code 5}).
 * Thrown while the op is built, it carries the attribute's name, so that the spec error is reported at that
 * attribute, as the binder reports the attributes it converts itself, rather than at the op.
 */
final class RefusedAttribute extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final String name;

    private RefusedAttribute(String name, IllegalArgumentException why) {
        super(why.getMessage(), why);
        this.name = name;
    }

    /** The attribute's name, as the spec gives it. */
    String name() {
        return name;
    }

    /** {@code how} applied to the attribute's value; a value it cannot take is refused under the attribute's name. */
    static <T> T convert(String name, Object value, Function<Object, T> how) {
        try {
            return how.apply(value);
        } catch (RefusedAttribute e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw new RefusedAttribute(name, e);
        }
    }

    /** The refused attribute in {@code e}'s causes, or null when the build failed for another reason. */
    static RefusedAttribute in(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof RefusedAttribute refused) {
                return refused;
            }
        }
        return null;
    }
}
