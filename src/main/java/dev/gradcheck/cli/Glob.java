package dev.gradcheck.cli;

import java.util.regex.Pattern;

/** Shell-style patterns for --only: {@code *} any run of characters, {@code ?} one character. */
final class Glob {

    private final Pattern pattern;

    Glob(String glob) {
        StringBuilder re = new StringBuilder();
        for (char c : glob.toCharArray()) {
            switch (c) {
                case '*' -> re.append(".*");
                case '?' -> re.append('.');
                default -> re.append(Pattern.quote(String.valueOf(c)));
            }
        }
        this.pattern = Pattern.compile(re.toString());
    }

    boolean matches(String text) {
        return pattern.matcher(text).matches();
    }
}
