package dev.gradcheck.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ReportFormatTest {

    @Test
    void parsesNamesIgnoringCaseAndBlanks() {
        assertEquals(ReportFormat.TABLE, ReportFormat.parse("table"));
        assertEquals(ReportFormat.JSON, ReportFormat.parse(" JSON "));
    }

    @Test
    void unknownNameListsTheAcceptedOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ReportFormat.parse("xml"));
        assertTrue(e.getMessage().contains("'xml'") && e.getMessage().contains("table, json"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ReportFormat.parse(null));
    }

    @Test
    void eachFormatMakesItsRenderer() {
        assertInstanceOf(TableRenderer.class, ReportFormat.TABLE.renderer());
        assertInstanceOf(JsonRenderer.class, ReportFormat.JSON.renderer());
        for (ReportFormat f : ReportFormat.values()) {
            assertEquals(f, ReportFormat.parse(f.cliName()), "every format round-trips through its name");
        }
    }
}
