package dev.gradcheck.report;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.gradcheck.result.BlockJacobians;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.Engine;
import dev.gradcheck.result.GradientResult;
import java.io.BufferedOutputStream;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * {@code check --dump DIR}: the numerical and analytic Jacobians of each block a result carries
 * ({@link BlockJacobians}), as NumPy {@code .npy} files or CSV, one folder per check, and a {@code manifest.json}
 * that says which file holds what (docs/report-schema.md, "Jacobian dumps"). Each matrix is 2-D, output elements
 * (rows) by input elements (columns), flat row-major indices; a sampled block lists which ones in the manifest.
 * A third file per block holds each entry's mark: 0 agrees, 1 mismatches, 2 masked, 3 at a kink.
 */
public final class JacobianDump {

    /** How the matrices are written. */
    public enum Format {
        /** NumPy's .npy, version 1.0: float64 little-endian, C order; marks as uint8. */
        NPY,
        /** Comma-separated decimal text, one matrix row per line; NaN and infinities as nan, inf, -inf. */
        CSV;

        public String extension() {
            return name().toLowerCase(Locale.ROOT);
        }

        public static Format parse(String name) {
            for (Format f : values()) {
                if (f.extension().equalsIgnoreCase(name == null ? "" : name.strip())) {
                    return f;
                }
            }
            throw new IllegalArgumentException("unknown dump format '" + name + "', expected npy or csv");
        }
    }

    private static final JsonFactory JSON = new JsonFactory();

    private final Path dir;
    private final Format format;
    private final List<Entry> manifest = new ArrayList<>();
    private final Set<String> folders = new HashSet<>();
    /** Failing blocks that came back without matrices (UndrawnBlocks), listed in the manifest as not written. */
    private final List<Entry> undrawn = new ArrayList<>();

    /** One written block, as the manifest lists it. */
    private record Entry(CheckResult check, GradientResult block, String folder, String base) {}

    public JacobianDump(Path dir, Format format) {
        this.dir = dir;
        this.format = format;
    }

    /**
     * Writes every block of the result that carries its matrices.
     *
     * @return how many blocks were written
     */
    public synchronized int write(CheckResult result) throws IOException {
        UndrawnBlocks.of(result).forEach(g -> undrawn.add(new Entry(result, g, null, null)));
        List<GradientResult> blocks = result.gradients() == null ? List.of()
                : result.gradients().stream().filter(g -> g.jacobians() != null).toList();
        if (blocks.isEmpty()) {
            return 0;
        }
        String folder = folderFor(result);
        Files.createDirectories(dir.resolve(folder));
        Set<String> bases = new HashSet<>();
        for (GradientResult g : blocks) {
            String base = unique(safe((g.order() == 2 ? "order2-" : "") + "d" + g.output() + "_d" + g.input()), bases);
            BlockJacobians j = g.jacobians();
            Path at = dir.resolve(folder);
            writeMatrix(at.resolve(base + ".numerical." + format.extension()), j.numerical());
            writeMatrix(at.resolve(base + ".analytic." + format.extension()), j.analytic());
            writeMarks(at.resolve(base + ".marks." + format.extension()), j);
            manifest.add(new Entry(result, g, folder, base));
        }
        return blocks.size();
    }

    /** {@code manifest.json} over every block written so far (rewritten whole, so it is never half a list). */
    public synchronized void writeManifest() throws IOException {
        Files.createDirectories(dir);
        Path tmp = dir.resolve("manifest.json.tmp");
        try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8);
             JsonGenerator gen = JSON.createGenerator(w)) {
            gen.useDefaultPrettyPrinter();
            gen.writeStartObject();
            gen.writeStringField("schema", "gradcheck-dump");
            gen.writeNumberField("schema_version", 1);
            gen.writeStringField("format", format.extension());
            gen.writeStringField("marks", "0 agrees, 1 mismatch, 2 masked, 3 kink");
            gen.writeArrayFieldStart("blocks");
            for (Entry e : manifest) {
                writeEntry(gen, e);
            }
            gen.writeEndArray();
            gen.writeStringField("not_written_because", UndrawnBlocks.OVER_BUDGET);
            gen.writeArrayFieldStart("not_written");
            for (Entry e : undrawn) {
                writeUndrawn(gen, e);
            }
            gen.writeEndArray();
            gen.writeEndObject();
        }
        Files.move(tmp, dir.resolve("manifest.json"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    public synchronized int blocksWritten() {
        return manifest.size();
    }

    /** How many failing blocks came back without matrices, so were not written. */
    public synchronized int blocksNotWritten() {
        return undrawn.size();
    }

    private static void writeUndrawn(JsonGenerator gen, Entry e) throws IOException {
        gen.writeStartObject();
        gen.writeStringField("spec", e.check().name());
        gen.writeStringField("location", e.check().location());
        gen.writeStringField("backend", e.check().backend());
        gen.writeStringField("output", e.block().output());
        gen.writeStringField("input", e.block().input());
        gen.writeNumberField("order", e.block().order());
        gen.writeStringField("verdict", e.block().verdict().reportName());
        gen.writeEndObject();
    }

    private void writeEntry(JsonGenerator gen, Entry e) throws IOException {
        GradientResult g = e.block();
        BlockJacobians j = g.jacobians();
        gen.writeStartObject();
        gen.writeStringField("spec", e.check().name());
        gen.writeStringField("location", e.check().location());
        gen.writeStringField("backend", e.check().backend());
        gen.writeStringField("output", g.output());
        gen.writeStringField("input", g.input());
        gen.writeNumberField("order", g.order());
        gen.writeStringField("verdict", g.verdict().reportName());
        writeLongs(gen, "output_shape", j.outputShape());
        writeLongs(gen, "input_shape", j.inputShape());
        gen.writeNumberField("rows", j.rowCount());
        gen.writeNumberField("cols", j.colCount());
        writeInts(gen, "row_indices", j.rows());
        writeInts(gen, "col_indices", j.cols());
        String prefix = e.folder() + "/" + e.base();
        gen.writeStringField("numerical", prefix + ".numerical." + format.extension());
        gen.writeStringField("analytic", prefix + ".analytic." + format.extension());
        gen.writeStringField("marks", prefix + ".marks." + format.extension());
        gen.writeEndObject();
    }

    private static void writeLongs(JsonGenerator gen, String field, long[] values) throws IOException {
        gen.writeArrayFieldStart(field);
        for (long v : values) {
            gen.writeNumber(v);
        }
        gen.writeEndArray();
    }

    /** Flat indices of a sampled side; null when the block holds every index in order. */
    private static void writeInts(JsonGenerator gen, String field, int[] values) throws IOException {
        if (values == null) {
            gen.writeNullField(field);
            return;
        }
        gen.writeArrayFieldStart(field);
        for (int v : values) {
            gen.writeNumber(v);
        }
        gen.writeEndArray();
    }

    /** The check's folder: its name made safe for a file system, the backend beside it when not the default. */
    private String folderFor(CheckResult r) {
        String name = safe(r.name()) + (r.backend() == null || r.backend().equals(Engine.DEFAULT.specName())
                || r.backend().isEmpty() ? "" : "@" + safe(r.backend()));
        return unique(name, folders);
    }

    private static String unique(String name, Set<String> taken) {
        String candidate = name;
        for (int k = 2; !taken.add(candidate); k++) {
            candidate = name + "-" + k;
        }
        return candidate;
    }

    /** Letters, digits, dot, dash and underscore; anything else becomes an underscore. */
    static String safe(String name) {
        String s = name == null || name.isEmpty() ? "unnamed" : name.replaceAll("[^A-Za-z0-9._-]", "_");
        return s.startsWith(".") ? "_" + s.substring(1) : s;
    }

    private void writeMatrix(Path file, double[][] m) throws IOException {
        int rows = m.length;
        int cols = rows == 0 ? 0 : m[0].length;
        if (format == Format.CSV) {
            try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
                for (double[] row : m) {
                    StringBuilder sb = new StringBuilder();
                    for (int c = 0; c < row.length; c++) {
                        sb.append(c == 0 ? "" : ",").append(csv(row[c]));
                    }
                    w.write(sb.append('\n').toString());
                }
            }
            return;
        }
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file))) {
            out.write(npyHeader("<f8", rows, cols));
            ByteBuffer buf = ByteBuffer.allocate(8 * Math.max(cols, 1)).order(ByteOrder.LITTLE_ENDIAN);
            for (double[] row : m) {
                buf.clear();
                for (double v : row) {
                    buf.putDouble(v);
                }
                out.write(buf.array(), 0, buf.position());
            }
        }
    }

    private void writeMarks(Path file, BlockJacobians j) throws IOException {
        int rows = j.rowCount();
        int cols = j.colCount();
        if (format == Format.CSV) {
            try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
                for (int r = 0; r < rows; r++) {
                    StringBuilder sb = new StringBuilder();
                    for (int c = 0; c < cols; c++) {
                        sb.append(c == 0 ? "" : ",").append(code(j.mark(r, c)));
                    }
                    w.write(sb.append('\n').toString());
                }
            }
            return;
        }
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file))) {
            out.write(npyHeader("|u1", rows, cols));
            for (int r = 0; r < rows; r++) {
                for (int c = 0; c < cols; c++) {
                    out.write(code(j.mark(r, c)));
                }
            }
        }
    }

    private static int code(char mark) {
        return switch (mark) {
            case BlockJacobians.MISMATCH -> 1;
            case BlockJacobians.MASKED -> 2;
            case BlockJacobians.KINK -> 3;
            default -> 0;
        };
    }

    /** What numpy.loadtxt reads back: the shortest decimal that round-trips, nan, inf, -inf. */
    private static String csv(double v) {
        if (Double.isNaN(v)) {
            return "nan";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "inf" : "-inf";
        }
        return Double.toString(v);
    }

    /**
     * The .npy 1.0 preamble: magic, version, header length (little-endian uint16), then a Python dict literal
     * padded with spaces and ended by a newline so that the data starts on a 64-byte boundary.
     */
    static byte[] npyHeader(String descr, int rows, int cols) {
        String dict = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': (" + rows + ", " + cols + "), }";
        int unpadded = 10 + dict.length() + 1;
        int padding = (64 - unpadded % 64) % 64;
        String header = dict + " ".repeat(padding) + "\n";
        byte[] text = header.getBytes(StandardCharsets.US_ASCII);
        ByteBuffer b = ByteBuffer.allocate(10 + text.length).order(ByteOrder.LITTLE_ENDIAN);
        b.put((byte) 0x93).put("NUMPY".getBytes(StandardCharsets.US_ASCII)).put((byte) 1).put((byte) 0);
        b.putShort((short) text.length).put(text);
        return b.array();
    }
}
