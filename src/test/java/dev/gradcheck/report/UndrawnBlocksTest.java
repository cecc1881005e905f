package dev.gradcheck.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gradcheck.result.CheckResult;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A format that draws matrices says which failing blocks it could not draw: those whose dense Jacobians did not fit
 * the budget came back without matrices, judged as for any format (issue 36, item 1).
 */
class UndrawnBlocksTest {

    @TempDir
    Path dir;

    @Test
    void onlyFailingJacobianBlocksWithoutMatricesAreUndrawn() {
        List<CheckResult> results = HtmlReportTest.results();
        CheckResult softmax = results.stream().filter(r -> r.name().equals("softmax-rows")).findFirst().orElseThrow();
        assertEquals(List.of(), UndrawnBlocks.of(softmax), "its failing block carries its matrices");
        CheckResult nan = results.stream().filter(r -> r.name().equals("log-near-zero")).findFirst().orElseThrow();
        assertEquals(1, UndrawnBlocks.of(nan).size(), "a non-finite block without matrices");
        CheckResult passed = results.get(0);
        assertEquals(List.of(), UndrawnBlocks.of(passed), "passing blocks are never drawn by check");
    }

    @Test
    void thePageListsEachFailingBlockItCouldNotDrawWithWhy() throws IOException {
        String page = HtmlReportTest.render();
        assertTrue(page.contains("<h2>Failing blocks not drawn</h2>"), "a section of its own");
        assertTrue(page.contains(HtmlRenderer.esc(UndrawnBlocks.OVER_BUDGET)), "and why");
        assertTrue(page.contains("\">log-near-zero</a> d0/dx</li>"), "the NaN block, linked to its row");
        assertTrue(!page.contains("\">softmax-rows</a> d0/dw</li>"), "not the block that is drawn");
    }

    @Test
    void theDumpManifestListsTheFailingBlocksItCouldNotWrite() throws IOException {
        JacobianDump dump = new JacobianDump(dir, JacobianDump.Format.CSV);
        for (CheckResult r : HtmlReportTest.results()) {
            dump.write(r);
        }
        dump.writeManifest();
        JsonNode manifest = new ObjectMapper().readTree(dir.resolve("manifest.json").toFile());
        assertEquals(1, manifest.get("blocks").size(), "softmax-rows d0/dw");
        JsonNode notWritten = manifest.get("not_written");
        assertEquals(dump.blocksNotWritten(), notWritten.size());
        assertTrue(notWritten.size() >= 2, notWritten.toString());
        assertTrue(notWritten.toString().contains("\"spec\":\"log-near-zero\""), notWritten.toString());
        assertEquals(UndrawnBlocks.OVER_BUDGET, manifest.get("not_written_because").asText());
    }
}
