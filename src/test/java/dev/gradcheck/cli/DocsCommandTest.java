package dev.gradcheck.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** `gradcheck docs TOPIC` prints the documents the jar carries, the same as docs/ in the source tree. */
class DocsCommandTest {

    @Test
    void aTopicPrintsItsDocument() throws Exception {
        Cli r = Cli.run("docs", "spec-format");
        assertEquals(0, r.exit(), r.err());
        assertEquals(Files.readString(Path.of("docs/spec-format.md")), r.out());
        assertEquals(0, Cli.run("docs", "ARCHITECTURE.md").exit(), "case and .md do not matter");
    }

    /** Help that points to a document names `gradcheck docs TOPIC` too, and each such topic exists. */
    @Test
    void everyTopicHelpNamesExists() {
        java.util.Set<String> named = new java.util.TreeSet<>();
        for (String[] help : new String[][] {{"--help"}, {"check", "--help"}, {"coverage", "--help"},
            {"list-ops", "--help"}}) {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("gradcheck docs ([a-z-]+)")
                    .matcher(Cli.run(help).out().replaceAll("\\s+", " "));
            while (m.find()) {
                named.add(m.group(1));
            }
        }
        assertTrue(named.containsAll(java.util.List.of("spec-format", "report-schema", "checking", "coverage",
                "plugins")), named.toString());
        assertTrue(DocsCommand.topics().containsAll(named), named + " not all in " + DocsCommand.topics());
    }

    @Test
    void noTopicListsThemAndAMisspeltOneSuggests() {
        Cli list = Cli.run("docs");
        assertEquals(0, list.exit());
        assertTrue(list.out().lines().toList().containsAll(java.util.List.of("ci", "library-api", "spec-format")),
                list.out());
        Cli typo = Cli.run("docs", "spec-fromat");
        assertEquals(2, typo.exit());
        assertTrue(typo.err().contains("no document 'spec-fromat' (did you mean 'spec-format'?)"), typo.err());
    }
}
