package dev.gradcheck.check.twosided;

/** Values written out as a spec's nested lists, row-major, for inputs a test makes up. */
final class Nested {

    private Nested() {}

    static String of(double[] v, long[] shape) {
        StringBuilder b = new StringBuilder();
        nest(b, v, shape, 0, 0);
        return b.toString();
    }

    private static int nest(StringBuilder b, double[] v, long[] shape, int d, int at) {
        int next = at;
        b.append('[');
        for (int i = 0; i < shape[d]; i++) {
            b.append(i == 0 ? "" : ", ");
            if (d == shape.length - 1) {
                double x = v[next++];
                b.append(x == 0 ? "0.0" : Double.toString(x));
            } else {
                next = nest(b, v, shape, d + 1, next);
            }
        }
        b.append(']');
        return next;
    }
}
