package dev.gradcheck.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

/** The escapes each kind of output gets, and the text each keeps as it is. */
class SafeTextTest {

    @Test
    void ordinaryTextIsReturnedAsItIs() {
        String name = "softmax-rows é 😀 <a & \"b\">";
        assertSame(name, SafeText.forXml(name));
        assertSame(name, SafeText.forTerminal(name));
    }

    @Test
    void xmlKeepsLineEndsAndTabsAndEscapesWhatItCannotHold() {
        assertEquals("\\u001B[31mred\\u0001\tx\ny\r", SafeText.forXml("\u001b[31mred\u0001\tx\ny\r"));
        assertEquals("\\u0000\\uFFFE\\uFFFF\\u007F\\u009B", SafeText.forXml("\u0000\uFFFE\uFFFF\u007F\u009B"));
        assertEquals("a\\uD800b\\uDC00", SafeText.forXml("a\uD800b\uDC00"), "lone surrogates");
        assertEquals("\\uDC00😀\\uD800", SafeText.forXml("\uDC00\uD83D\uDE00\uD800"), "a pair between lone ones");
        assertEquals("\u2028\u202E", SafeText.forXml("\u2028\u202E"), "XML can hold these");
    }

    @Test
    void aTerminalLineGetsNoControlCharacterAtAll() {
        assertEquals("\\u001B[31mred\\u0009x\\u000Ay\\u000D", SafeText.forTerminal("\u001b[31mred\tx\ny\r"));
        assertEquals("\\u2028\\u202E\\u200B\\uD800", SafeText.forTerminal("\u2028\u202E\u200B\uD800"));
        assertEquals(null, SafeText.forTerminal(null));
    }
}
