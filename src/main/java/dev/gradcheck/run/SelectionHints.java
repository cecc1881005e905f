package dev.gradcheck.run;

import dev.gradcheck.spec.LoadedSpec;
import dev.gradcheck.spec.SpecIds;
import dev.gradcheck.spec.Suggestions;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What to say when a selection takes none of the specs found, as pytest says nothing useful and a user retypes:
 * a keyword that no spec's name, op or file holds, with the closest word that some does; a glob that matches no
 * whole name but is part of some, with the glob that would take them. The CLI, the shell and the JUnit engine
 * print these after their own "nothing selected" line.
 */
public final class SelectionHints {

    private static final String WILDCARDS = "*?[]{}";

    private SelectionHints() {}

    /** One line per hint; none when there is nothing better to suggest. */
    public static List<String> of(SpecSelection selection, List<LoadedSpec> found, SpecIds ids) {
        List<String> hints = new ArrayList<>();
        List<SpecKeywords> keywords = found.stream().map(s -> SpecKeywords.of(s, ids)).toList();
        if (selection.keywords() != null) {
            for (String word : selection.keywords().tags()) {
                if (keywords.stream().noneMatch(k -> k.contains(word))) {
                    hints.add("no spec's name, op or file holds '" + word + "'" + Suggestions.closest(word,
                            vocabulary(found)).map(w -> " (did you mean '" + w + "'?)").orElse(""));
                }
            }
        }
        for (Glob glob : selection.only()) {
            String text = glob.toString();
            boolean matchesSome = found.stream().anyMatch(s -> selectsAlone(glob, s, ids));
            if (matchesSome || text.chars().anyMatch(c -> WILDCARDS.indexOf(c) >= 0)) {
                continue;
            }
            long holding = keywords.stream().filter(k -> k.contains(text)).count();
            if (holding > 0) {
                hints.add("'" + text + "' is a glob over whole names and paths: '*" + text + "*' takes the "
                        + holding + " whose name, op or file holds it");
            } else {
                Suggestions.closest(text, found.stream().map(LoadedSpec::name).toList())
                        .ifPresent(n -> hints.add("no spec is named '" + text + "' (did you mean '" + n + "'?)"));
            }
        }
        return hints;
    }

    private static boolean selectsAlone(Glob glob, LoadedSpec spec, SpecIds ids) {
        return new SpecSelection(List.of(glob), List.of(), null, null).selects(spec, ids);
    }

    /** The words a keyword could have meant: names, ops, and their parts between '-', '_', '.' and '/'. */
    private static Set<String> vocabulary(List<LoadedSpec> found) {
        Set<String> words = new LinkedHashSet<>();
        for (LoadedSpec spec : found) {
            List<String> texts = new ArrayList<>(SpecKeywords.ops(spec));
            texts.add(spec.name());
            for (String text : texts) {
                String lower = text.toLowerCase(Locale.ROOT);
                words.add(lower);
                for (String part : lower.split("[-_./\\s]+")) {
                    if (part.length() > 2) {
                        words.add(part);
                    }
                }
            }
        }
        return words;
    }
}
