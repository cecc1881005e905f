package dev.gradcheck.backend;

import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.Status;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a worker printed during a check, attached to the check's result: every line as its log, and for an operator
 * error, libnd4j's own words. ND4J's exception often ends "Here is the error from c++:" with nothing after it (or
 * says only "Op validation failed"), while the cause ("input shapes are inconsistent: xDim 2 != yDim 3") was
 * printf()ed by libnd4j on the worker's stdout: those native lines are added to the message as {@code libnd4j: ...}.
 */
final class PrintedOutput {

    /** What starts each of libnd4j's lines added to a message. */
    static final String NATIVE_PREFIX = "libnd4j: ";

    /** The most native lines added to a message: the last ones, nearest the failure. */
    private static final int MAX_NATIVE_LINES = 3;
    /** libnd4j's location header, e.g. {@code Error at [/home/runner/.../softmax.cpp:47:0]:}, before its message. */
    private static final Pattern LOCATION = Pattern.compile("Error at \\[(?:.*/)?([^/\\]]+?):(\\d+)(?::\\d+)?\\]:?");

    private PrintedOutput() {}

    static CheckResult attach(CheckResult result, List<PrintedLine> printed) {
        if (result == null || printed.isEmpty()) {
            return result;
        }
        List<String> log = new ArrayList<>(result.log());
        printed.forEach(line -> log.add(line.text()));
        CheckResult withLog = result.withLog(log);
        if (!explainsAnError(result.status()) || result.message() == null) {
            return withLog;
        }
        StringBuilder message = new StringBuilder(result.message().stripTrailing());
        // an invalid spec's message is its problems, each a file:line:col line: the words join the problem's line
        String separator = result.status() == Status.INVALID ? "; " : "\n";
        for (String words : nativeWords(printed)) {
            if (!message.toString().contains(words)) {
                message.append(separator + NATIVE_PREFIX).append(words);
            }
        }
        return withLog.withMessage(message.toString());
    }

    private static boolean explainsAnError(Status status) {
        return status == Status.ERROR || status == Status.EXPECTED_ERROR || status == Status.INVALID;
    }

    /**
     * The native lines, each once, a location header folded into the line it introduces
     * ({@code SOFTMAX OP: ... (softmax.cpp:47)}); the last {@value #MAX_NATIVE_LINES}.
     */
    static List<String> nativeWords(List<PrintedLine> printed) {
        LinkedHashSet<String> words = new LinkedHashSet<>();
        String location = null;
        for (PrintedLine line : printed) {
            String text = line.text().strip();
            if (line.java() || text.isEmpty()) {
                continue;
            }
            Matcher m = LOCATION.matcher(text);
            if (m.matches()) {
                if (location != null) {
                    words.add("error at " + location);
                }
                location = m.group(1) + ":" + m.group(2);
                continue;
            }
            words.remove(text);
            words.add(location == null ? text : text + " (" + location + ")");
            location = null;
        }
        if (location != null) {
            words.add("error at " + location);
        }
        List<String> all = new ArrayList<>(words);
        return all.subList(Math.max(0, all.size() - MAX_NATIVE_LINES), all.size());
    }
}
