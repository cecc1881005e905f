package dev.gradcheck.check;

import java.util.ArrayList;
import java.util.List;

/** One readable line from an exception chain: each distinct message once, outermost first, no stack trace. */
final class ErrorText {

    private ErrorText() {}

    static String of(Throwable e) {
        List<String> parts = new ArrayList<>();
        for (Throwable t = e; t != null && parts.size() < 4; t = t.getCause()) {
            String msg = t.getMessage();
            // gradcheck's own messages are written for the user; Java class names are for the op's exceptions
            boolean own = t instanceof SecondOrderException;
            String text = own ? String.valueOf(msg).strip()
                    : t.getClass().getSimpleName() + (msg == null ? "" : ": " + msg.strip());
            if (parts.stream().noneMatch(p -> msg != null && p.contains(msg.strip()))) {
                parts.add(text);
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return String.join("; caused by ", parts);
    }
}
