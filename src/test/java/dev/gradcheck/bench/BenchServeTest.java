package dev.gradcheck.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.PrintWriter;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** What bench/compare relies on: the JSON-lines protocol of {@code gradcheck bench --serve}, and the same cases. */
class BenchServeTest {

    private static List<JsonNode> serve(String... requests) throws Exception {
        StringWriter out = new StringWriter();
        new Bench(1, new PrintWriter(out)).serve(new BufferedReader(new StringReader(String.join("\n", requests))));
        List<JsonNode> replies = new ArrayList<>();
        ObjectMapper json = new ObjectMapper();
        for (String line : out.toString().split("\n")) {
            if (!line.isBlank()) {
                replies.add(json.readTree(line));
            }
        }
        return replies;
    }

    @Test
    void answersEachRequestOnItsOwnLineUntilQuit() throws Exception {
        List<JsonNode> r = serve("{\"cmd\": \"cases\"}",
                "{\"cmd\": \"check\", \"case\": \"tanh-100\", \"mode\": \"fast\", \"executor\": \"direct\"}",
                "{\"cmd\": \"check\", \"case\": \"softmax-16x32\", \"mode\": \"fast\", \"executor\": \"samediff\"}",
                "{\"cmd\": \"costs\", \"case\": \"tanh-100\", \"executor\": \"direct\"}",
                "{\"cmd\": \"check\", \"case\": \"no-such-case\"}",
                "not json",
                "{\"cmd\": \"quit\"}",
                "{\"cmd\": \"cases\"}");
        assertEquals(6, r.size(), "one reply per request, none after quit: " + r);
        assertEquals(6, r.get(0).get("cases").size());
        assertEquals(100, r.get(0).at("/cases/0/n").asLong(), "tanh 100 checks 100 input elements");
        for (JsonNode check : List.of(r.get(1), r.get(2))) {
            assertEquals("passed", check.get("status").asText(), check.toString());
            assertTrue(check.get("ms").asDouble() > 0 && check.get("evaluations").asLong() > 0, check.toString());
        }
        JsonNode costs = r.get(3);
        assertTrue(costs.get("forward_us").asDouble() > 0 && costs.get("vjp_us").asDouble() > 0, costs.toString());
        assertEquals("", costs.get("session_use").asText(), "tanh runs on the direct executor throughout");
        assertTrue(r.get(4).get("error").asText().contains("no bench case 'no-such-case'"), r.get(4).toString());
        assertTrue(r.get(5).has("error"), r.get(5).toString());
    }

    @Test
    void listsTheScalingCasesAndChecksThemByIdUpToA64x64Matmul() throws Exception {
        List<JsonNode> r = serve("{\"cmd\": \"cases\", \"set\": \"scaling\"}",
                "{\"cmd\": \"check\", \"case\": \"matmul-8\", \"compress\": false, \"threads\": 1}",
                "{\"cmd\": \"check\", \"case\": \"matmul-8\"}",
                "{\"cmd\": \"cases\", \"set\": \"nine\"}");
        JsonNode cases = r.get(0).get("cases");
        assertEquals(BenchCase.SCALING.size(), cases.size());
        JsonNode last = cases.get(cases.size() - 1);
        assertEquals("matmul-64", last.get("id").asText());
        assertEquals(2 * 64 * 64, last.get("n").asLong(), "both 64x64 inputs checked");
        JsonNode dense = r.get(1);
        JsonNode compressed = r.get(2);
        assertEquals("passed", dense.get("status").asText(), dense.toString());
        assertEquals("passed", compressed.get("status").asText(), compressed.toString());
        assertTrue(compressed.get("evaluations").asLong() < dense.get("evaluations").asLong(),
                "compressed by default: " + compressed + " against " + dense);
        assertTrue(r.get(3).get("error").asText().contains("no set of bench cases 'nine'"), r.get(3).toString());
    }

    /** bench/compare holds the PyTorch version of each case under the same id: the two lists must not drift. */
    @Test
    void benchCompareHasAPyTorchVersionOfEveryCase() throws Exception {
        String script = Files.readString(Path.of("bench", "compare"));
        Set<String> torch = new TreeSet<>();
        Matcher m = Pattern.compile("^\\s+\"([a-z0-9x-]+)\": \\(", Pattern.MULTILINE).matcher(script);
        while (m.find()) {
            torch.add(m.group(1));
        }
        Set<String> ours = new TreeSet<>();
        BenchCase.ALL.forEach(c -> ours.add(c.id()));
        BenchCase.SCALING.forEach(c -> ours.add(c.id()));
        assertEquals(ours, torch);
    }
}
