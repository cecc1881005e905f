package dev.gradcheck.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gradcheck.ExternalTool;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code check --dump DIR}: the failing blocks' Jacobians as .npy or CSV, and a manifest. */
class DumpTest {

    /** ND4J's matrix_inverse backward is wrong (docs/nd4j-findings.md): one failing 9 x 9 block. */
    static final String INVERSE = """
            name: inverse
            op: matrix_inverse
            inputs:
              x: {shape: [3, 3]}
            ---
            name: fine
            op: tanh
            inputs:
              x: {shape: [2, 2]}
            """;

    @TempDir
    Path dir;

    private Cli dump(String... extra) throws IOException {
        Path spec = dir.resolve("specs.yaml");
        Files.writeString(spec, INVERSE);
        List<String> args = new java.util.ArrayList<>(List.of("check", spec.toString(), "--dump",
                dir.resolve("out").toString()));
        args.addAll(List.of(extra));
        return Cli.run(args.toArray(new String[0]));
    }

    /** A .npy 1.0 file: magic, version, header dict, then little-endian data on a 64-byte boundary. */
    record Npy(String descr, int rows, int cols, ByteBuffer data) {
        static Npy read(Path file) throws IOException {
            byte[] bytes = Files.readAllBytes(file);
            assertEquals((byte) 0x93, bytes[0]);
            assertEquals("NUMPY", new String(bytes, 1, 5, StandardCharsets.US_ASCII));
            assertEquals(1, bytes[6], "format version 1.0");
            int headerLength = ByteBuffer.wrap(bytes, 8, 2).order(ByteOrder.LITTLE_ENDIAN).getShort();
            assertEquals(0, (10 + headerLength) % 64, "data starts on a 64-byte boundary");
            String header = new String(bytes, 10, headerLength, StandardCharsets.US_ASCII);
            assertTrue(header.endsWith("\n") && header.contains("'fortran_order': False"), header);
            java.util.regex.Matcher m = java.util.regex.Pattern
                    .compile("'descr': '([^']+)'.*'shape': \\((\\d+), (\\d+)\\)").matcher(header);
            assertTrue(m.find(), header);
            return new Npy(m.group(1), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)),
                    ByteBuffer.wrap(bytes, 10 + headerLength, bytes.length - 10 - headerLength).slice()
                            .order(ByteOrder.LITTLE_ENDIAN));
        }

        double at(int r, int c) {
            return data.getDouble((r * cols + c) * 8);
        }
    }

    @Test
    void theFailingBlockIsWrittenAsNpyWithAManifest() throws IOException {
        Cli r = dump();
        assertEquals(1, r.exit(), r.err());
        assertTrue(r.err().contains("dumped 1 failing block to"), r.err());
        Path out = dir.resolve("out");
        JsonNode manifest = new ObjectMapper().readTree(out.resolve("manifest.json").toFile());
        assertEquals("gradcheck-dump", manifest.get("schema").asText());
        assertEquals(1, manifest.get("blocks").size(), "the passing check writes nothing");
        JsonNode block = manifest.get("blocks").get(0);
        assertEquals("inverse", block.get("spec").asText());
        assertEquals("0", block.get("output").asText());
        assertEquals("x", block.get("input").asText());
        assertEquals(9, block.get("rows").asInt());
        assertTrue(block.get("row_indices").isNull(), "a whole block");
        Npy numerical = Npy.read(out.resolve(block.get("numerical").asText()));
        Npy analytic = Npy.read(out.resolve(block.get("analytic").asText()));
        Npy marks = Npy.read(out.resolve(block.get("marks").asText()));
        assertEquals("<f8", numerical.descr());
        assertEquals(List.of(9, 9), List.of(numerical.rows(), numerical.cols()));
        assertEquals("|u1", marks.descr());
        int offDiagonalNonzero = 0;
        for (int i = 0; i < 9; i++) {
            for (int j = 0; j < 9; j++) {
                if (i != j) {
                    assertEquals(0.0, Math.abs(analytic.at(i, j)), "ND4J's backward is zero off the diagonal");
                    offDiagonalNonzero += numerical.at(i, j) != 0 ? 1 : 0;
                }
                assertEquals(1, marks.data().get(i * 9 + j), "every entry of this block mismatches");
            }
        }
        assertEquals(72, offDiagonalNonzero, "d(A^-1)/dA is dense");
        assertFalse(Files.exists(out.resolve("fine")), "no folder for a check without failing blocks");
    }

    @Test
    void numpyReadsWhatWasWritten() throws Exception {
        Path python = Path.of("/usr/bin/python3");
        ExternalTool.needed(Files.isExecutable(python), "no /usr/bin/python3 here (apt-get install -y python3-numpy)");
        Process probe = new ProcessBuilder(python.toString(), "-c", "import numpy").redirectErrorStream(true).start();
        ExternalTool.needed(probe.waitFor(60, TimeUnit.SECONDS) && probe.exitValue() == 0,
                "NumPy is not installed for /usr/bin/python3 (apt-get install -y python3-numpy)");
        dump();
        Path out = dir.resolve("out");
        Process p = new ProcessBuilder(python.toString(), "-c", String.join("\n",
                "import json, numpy, sys",
                "d = sys.argv[1]",
                "b = json.load(open(d + '/manifest.json'))['blocks'][0]",
                "n = numpy.load(d + '/' + b['numerical']); a = numpy.load(d + '/' + b['analytic'])",
                "m = numpy.load(d + '/' + b['marks'])",
                "assert n.shape == (9, 9) and n.dtype == numpy.float64 and m.dtype == numpy.uint8",
                "assert numpy.count_nonzero(a - numpy.diag(numpy.diag(a))) == 0",
                "print(int((m == 1).sum()))"), out.toString()).redirectErrorStream(true).start();
        String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), said);
        assertEquals("81", said);
    }

    @Test
    void csvIsOneMatrixRowPerLine() throws IOException {
        Cli r = dump("--dump-format", "csv");
        assertEquals(1, r.exit(), r.err());
        Path out = dir.resolve("out");
        JsonNode block = new ObjectMapper().readTree(out.resolve("manifest.json").toFile()).get("blocks").get(0);
        assertTrue(block.get("numerical").asText().endsWith(".numerical.csv"));
        List<String> rows = Files.readAllLines(out.resolve(block.get("numerical").asText()));
        assertEquals(9, rows.size());
        for (String row : rows) {
            String[] cells = row.split(",");
            assertEquals(9, cells.length, row);
            for (String cell : cells) {
                Double.parseDouble(cell);
            }
        }
        assertEquals(List.of("1,1,1,1,1,1,1,1,1"), Files.readAllLines(out.resolve(block.get("marks").asText()))
                .subList(0, 1));
    }

    @Test
    void aDumpThatCannotBeWrittenSaysSoAndExitsTwo() throws IOException {
        Path file = dir.resolve("out");
        Files.writeString(file, "a file, not a folder");
        Cli r = dump();
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains("--dump " + file + ": cannot write"), r.err());
        assertTrue(r.out().contains("FAILED"), "the report is still written: " + r.out());
    }

    @Test
    void anUnknownFormatIsAUsageError() throws IOException {
        Cli r = dump("--dump-format", "hdf5");
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("unknown dump format 'hdf5', expected npy or csv"), r.err());
    }
}
