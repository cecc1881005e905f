package dev.gradcheck.op.catalog;

/**
 * One named argument of an ND4J op, from ND4J's op descriptors: an integer, floating or boolean argument at a
 * position among its kind, or an input tensor.
 */
public record ArgInfo(String name, Kind kind, int index) {

    public enum Kind {
        INT("int"), FLOAT("float"), BOOL("bool"), DTYPE("dtype"), INPUT("input"),
        /** A plugin op's attribute: the plugin reads whatever value the spec gives. */
        ANY("any");

        private final String label;

        Kind(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }

        /** The kind a label names ({@link #label()}), if any. */
        public static java.util.Optional<Kind> fromLabel(String label) {
            return java.util.Arrays.stream(values()).filter(k -> k.label.equals(label)).findFirst();
        }
    }
}
