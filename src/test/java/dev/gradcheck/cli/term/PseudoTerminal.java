package dev.gradcheck.cli.term;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs bin/gradcheck as a person would, in a pseudo-terminal (util-linux's {@code script}), over this build's
 * classes ({@code GRADCHECK_CLASSPATH}), and reads what the terminal would show: the raw bytes, and the screen they
 * leave once carriage returns and erasures are applied.
 */
final class PseudoTerminal {

    /**
     * What a run left.
     *
     * @param raw    every byte the terminal received, escape sequences included
     * @param screen the lines on the screen afterwards (colours left out, erasures applied)
     * @param exit   gradcheck's exit code
     */
    record Run(String raw, List<String> screen, int exit) {}

    private PseudoTerminal() {}

    /** Whether util-linux's script is there to run one (the shell's terminal tests need it too). */
    static boolean available() {
        return TerminalSession.available();
    }

    /**
     * @param columns the terminal's width
     * @param env     environment variables set for the run (TERM, COLUMNS, NO_COLOR and FORCE_COLOR are cleared
     *                first, so only these count)
     * @param command a bash command line run in the project root, e.g. {@code bin/gradcheck check specs > out.txt}
     */
    static Run run(Path dir, int columns, Map<String, String> env, String command)
            throws IOException, InterruptedException {
        Path inner = dir.resolve("in-terminal.sh");
        Files.writeString(inner, "stty cols " + columns + " rows 200\n" + command + "\n");
        ProcessBuilder pb = new ProcessBuilder("script", "-qec", "bash " + inner, "/dev/null");
        pb.directory(Path.of("").toAbsolutePath().toFile());
        Map<String, String> e = pb.environment();
        for (String key : new String[] {"TERM", "COLUMNS", "NO_COLOR", "FORCE_COLOR", "GRADCHECK_DEBUG"}) {
            e.remove(key);
        }
        e.put("TERM", "xterm");
        e.put("GRADCHECK_CLASSPATH", System.getProperty("java.class.path"));
        e.putAll(env);
        pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        pb.redirectErrorStream(true);
        Process p = pb.start();
        String raw = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(300, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("no end in 300 s: " + raw);
        }
        return new Run(raw, screen(raw), p.exitValue());
    }

    /** A small terminal: text at the cursor, CR to column 0, LF to the next line, ESC[K erases to the end. */
    static List<String> screen(String raw) {
        List<StringBuilder> lines = new ArrayList<>();
        lines.add(new StringBuilder());
        int col = 0;
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            StringBuilder line = lines.get(lines.size() - 1);
            if (c == '\r') {
                col = 0;
            } else if (c == '\n') {
                lines.add(new StringBuilder());
                col = 0;
            } else if (c == '\u001b' && i + 1 < raw.length() && raw.charAt(i + 1) == '[') {
                int end = i + 2;
                while (end < raw.length() && !Character.isLetter(raw.charAt(end))) {
                    end++;
                }
                if (end < raw.length() && raw.charAt(end) == 'K') {
                    line.setLength(Math.min(line.length(), col));
                }
                i = end;
            } else {
                while (line.length() < col) {
                    line.append(' ');
                }
                if (col < line.length()) {
                    line.setCharAt(col, c);
                } else {
                    line.append(c);
                }
                col++;
            }
        }
        List<String> screen = new ArrayList<>();
        lines.forEach(l -> screen.add(l.toString().stripTrailing()));
        while (!screen.isEmpty() && screen.get(screen.size() - 1).isEmpty()) {
            screen.remove(screen.size() - 1);
        }
        return screen;
    }
}
