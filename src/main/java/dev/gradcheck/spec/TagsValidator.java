package dev.gradcheck.spec;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A spec's {@code tags: [slow, known-bug]}: labels that {@code check --tag EXPR} selects by. Each tag is a word
 * that a tag expression can name ({@link TagExpression#isValidTag}), given once.
 */
final class TagsValidator {

    private final ValueReader reader;

    TagsValidator(ValueReader reader) {
        this.reader = reader;
    }

    /** The tags that are valid, in the order written; every problem is recorded at its item. */
    List<String> read(YamlNode node) {
        Optional<YamlNode.Sequence> seq = reader.sequence(node, "tags");
        if (seq.isEmpty()) {
            return List.of();
        }
        List<String> tags = new ArrayList<>();
        List<YamlNode> items = seq.get().items();
        for (int i = 0; i < items.size(); i++) {
            YamlNode item = items.get(i);
            // a name, not a string: YAML reads `tags: [on, 2]` as a boolean and an integer
            Optional<String> tag = reader.name(item, ValueReader.element("tags", i));
            if (tag.isEmpty()) {
                continue;
            }
            String problem = TagExpression.tagProblem(tag.get());
            if (problem != null) {
                reader.problems.add(item.pos(), "tag '" + tag.get() + "' " + problem);
            } else if (tags.contains(tag.get())) {
                reader.problems.add(item.pos(), "tag '" + tag.get() + "' appears twice");
            } else {
                tags.add(tag.get());
            }
        }
        return List.copyOf(tags);
    }
}
