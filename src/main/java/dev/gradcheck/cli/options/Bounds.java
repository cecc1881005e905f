package dev.gradcheck.cli.options;

import dev.gradcheck.spec.CheckOptions;
import java.util.function.DoublePredicate;
import java.util.function.LongPredicate;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Converters that refuse a number outside its option's range as the value is converted, not later: a project
 * file's values go through the same converters, so {@code check: {jobs: 0}} is refused at its file:line:col as
 * {@code --jobs 0} is on the command line. The ranges are the specs' own where a spec has the same key.
 */
public final class Bounds {

    private Bounds() {}

    /** The most worker JVMs one run starts ({@code --jobs}); 2147483647 ran the front end out of memory. */
    public static final int MAX_JOBS = 256;

    /** {@code --jobs}: 1 to {@link #MAX_JOBS}. */
    public static final class Jobs extends Whole {
        public Jobs() {
            super(n -> n >= 1 && n <= MAX_JOBS, "must be between 1 and " + MAX_JOBS);
        }
    }

    /** 0 or more: {@code --durations} (0 lists every check). */
    public static final class NotNegative extends Whole {
        public NotNegative() {
            super(n -> n >= 0, "must be 0 or more");
        }
    }

    /** {@code --order}: 1 or 2. */
    public static final class Order extends Whole {
        public Order() {
            super(CheckOptions::validOrder, "must be 1 or 2");
        }
    }

    /** {@code --max-elements}: a positive integer. */
    public static final class MaxElements extends Whole {
        public MaxElements() {
            super(CheckOptions::validMaxElements, "must be a positive integer");
        }
    }

    /** {@code --threads}: 1 to {@link CheckOptions#MAX_THREADS}. */
    public static final class Threads extends Whole {
        public Threads() {
            super(CheckOptions::validThreads, "must be between 1 and " + CheckOptions.MAX_THREADS);
        }
    }

    /** {@code --nondet-tol}: finite and 0 or more. */
    public static final class NondetTol extends Real {
        public NondetTol() {
            super(CheckOptions::validNondetTol, "must be finite and >= 0");
        }
    }

    /** A real number within a range; the message says the range and the value given. */
    public abstract static class Real implements ITypeConverter<Double> {
        private final DoublePredicate valid;
        private final String range;

        protected Real(DoublePredicate valid, String range) {
            this.valid = valid;
            this.range = range;
        }

        @Override
        public Double convert(String value) {
            double x;
            try {
                x = Double.parseDouble(value.trim());
            } catch (NumberFormatException e) {
                throw new TypeConversionException("'" + value + "' is not a double");
            }
            if (!valid.test(x)) {
                throw new TypeConversionException(range + ", got " + value);
            }
            return x;
        }
    }

    /** An integer within a range; the message says the range and the value given. */
    abstract static class Whole implements ITypeConverter<Integer> {
        private final LongPredicate valid;
        private final String range;

        Whole(LongPredicate valid, String range) {
            this.valid = valid;
            this.range = range;
        }

        @Override
        public Integer convert(String value) {
            int n;
            try {
                n = Integer.parseInt(value.trim());
            } catch (NumberFormatException e) {
                throw new TypeConversionException("'" + value + "' is not an int");
            }
            if (!valid.test(n)) {
                throw new TypeConversionException(range + ", got " + value);
            }
            return n;
        }
    }
}
