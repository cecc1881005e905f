package dev.gradcheck.cli;

import java.util.regex.Matcher;

/**
 * A spec of gradcheck's own suite as the start of a new one: its document as the suite has it (comments,
 * attributes, shapes), named anew.
 *
 * @param file     its file in the suite ({@code conv/conv.yaml})
 * @param example  its name in the suite
 * @param document its document's text, without the {@code ---} around it
 */
record SuiteExample(String file, String example, String document) implements NewSpec {

    /** The same document under {@code name}. */
    SuiteExample named(String name) {
        String line = "name: " + NewSpec.scalar(name);
        String renamed = document.replaceFirst("(?m)^name:.*$", Matcher.quoteReplacement(line));
        return new SuiteExample(file, example, renamed.equals(document) && !document.contains(line)
                ? line + "\n" + document : renamed);
    }

    @Override
    public String name() {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?m)^name: *(.*)$").matcher(document);
        return m.find() ? m.group(1).strip() : example;
    }

    @Override
    public String yaml(String note) {
        StringBuilder y = new StringBuilder("# A spec for ").append(opName()).append(", from gradcheck's own suite"
                + " (specs/").append(file).append(", '").append(example).append("'). Change what you need,"
                + " then\n# `gradcheck validate FILE` and `gradcheck check FILE`. Every key: `gradcheck docs"
                + " spec-format`.\n");
        if (note != null) {
            y.append("# ").append(note).append('\n');
        }
        return y.append(document).toString();
    }

    private String opName() {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?m)^op: *(\\S+)").matcher(document);
        return m.find() ? m.group(1) : "the op";
    }
}
