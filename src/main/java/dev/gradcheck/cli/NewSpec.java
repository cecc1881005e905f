package dev.gradcheck.cli;

/**
 * A spec {@code gradcheck new} may print: one of gradcheck's own suite ({@link SuiteExample}), or one written from
 * ND4J's op descriptor ({@link SpecTemplate}). Each is tried on ND4J before it is printed.
 */
sealed interface NewSpec permits SpecTemplate, SuiteExample {

    /** The spec's name. */
    String name();

    /**
     * The spec as YAML with comments on what to change.
     *
     * @param note what {@code new} found about it (it validates; or ND4J's refusal), one comment line or null
     */
    String yaml(String note);

    /** A name as a YAML scalar: as it is when YAML reads it back unchanged, else quoted ({@link YamlText}). */
    static String scalar(String name) {
        return dev.gradcheck.spec.YamlText.string(name);
    }
}
