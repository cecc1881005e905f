package dev.gradcheck.report;

import dev.gradcheck.result.BlockJacobians;
import java.io.IOException;
import java.io.Writer;
import java.util.Locale;

/**
 * One of a block's three pictures as an SVG figure for the HTML report: the cells, the entry indices along both
 * axes (rows: the output's entries, columns: the input's, row-major, as {@link BlockPicture#axes} says; a cell that
 * covers several entries is labelled by its first), and under the map a colour scale with its end values. Each
 * cell's title holds its value (a browser shows it on hover).
 */
final class HeatMapSvg {

    private static final int MAP_PIXELS = 320;
    /** Room for the column indices above the map, and for the scale under it. */
    private static final int TOP = 16;
    private static final int SCALE = 36;
    private static final int CHAR_WIDTH = 7;

    private HeatMapSvg() {}

    /** @param id unique in the page: the scale's gradient is referred to by it */
    static void write(BlockPicture p, BlockPicture.Grid g, String id, Writer out) throws IOException {
        int cell = Math.max(4, Math.min(24, MAP_PIXELS / Math.max(p.rows(), p.cols())));
        int left = CHAR_WIDTH * Integer.toString((p.rows() - 1) * p.rowStep()).length() + 6;
        int w = cell * p.cols();
        int h = cell * p.rows();
        int width = left + Math.max(w, 140) + 4;
        int height = TOP + h + SCALE;
        out.write("<figure><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + width + "\" height=\"" + height
                + "\" viewBox=\"0 0 " + width + " " + height + "\" role=\"img\"><title>" + HtmlRenderer.esc(g.title())
                + "</title>\n");
        axes(p, cell, left, out);
        out.write("<g class=\"cells\" transform=\"translate(" + left + " " + TOP + ")\">\n");
        for (int r = 0; r < p.rows(); r++) {
            for (int c = 0; c < p.cols(); c++) {
                cell(p, g, r, c, cell, out);
            }
        }
        out.write("<rect class=\"frame\" width=\"" + w + "\" height=\"" + h + "\" fill=\"none\" stroke=\"#999\"/>\n"
                + "</g>\n");
        scale(g, id, left, TOP + h + 8, Math.max(w, 140), out);
        out.write("</svg><figcaption>" + HtmlRenderer.esc(g.title()) + "</figcaption></figure>\n");
    }

    /** Row indices left of the map, column indices above it, no closer than a label's width apart. */
    private static void axes(BlockPicture p, int cell, int left, Writer out) throws IOException {
        int rowEvery = (int) Math.ceil(12.0 / cell);
        int colLabel = CHAR_WIDTH * Integer.toString((p.cols() - 1) * p.colStep()).length() + 4;
        int colEvery = (int) Math.ceil((double) colLabel / cell);
        StringBuilder b = new StringBuilder("<g class=\"axis rows\" font-size=\"10\" text-anchor=\"end\">");
        for (int r = 0; r < p.rows(); r += rowEvery) {
            b.append("<text x=\"").append(left - 3).append("\" y=\"").append(TOP + r * cell + cell / 2 + 4)
                    .append("\">").append(r * p.rowStep()).append("</text>");
        }
        b.append("</g>\n<g class=\"axis cols\" font-size=\"10\" text-anchor=\"middle\">");
        for (int c = 0; c < p.cols(); c += colEvery) {
            b.append("<text x=\"").append(left + c * cell + cell / 2).append("\" y=\"").append(TOP - 4)
                    .append("\">").append(c * p.colStep()).append("</text>");
        }
        out.write(b.append("</g>\n").toString());
    }

    private static void cell(BlockPicture p, BlockPicture.Grid g, int r, int c, int cell, Writer out)
            throws IOException {
        double level = g.levels()[r][c];
        char mark = p.mark(r, c);
        int[] rgb = BlockPicture.rgb(g, level);
        boolean masked = mark == BlockJacobians.MASKED || mark == BlockJacobians.KINK;
        String fill = !g.signed() && masked ? "#cccccc" : hex(rgb);
        String stroke = !g.signed() && mark == BlockJacobians.MISMATCH
                ? " stroke=\"#000\" stroke-width=\"" + Math.max(1, cell / 6) + "\"" : "";
        out.write("<rect x=\"" + c * cell + "\" y=\"" + r * cell + "\" width=\"" + cell + "\" height=\"" + cell
                + "\" fill=\"" + fill + "\"" + stroke + "><title>"
                + String.format(Locale.ROOT, "entry %d, %d: %.3e%s", r * p.rowStep(), c * p.colStep(),
                        level * g.scale(), markName(mark))
                + "</title></rect>\n");
    }

    /**
     * The colour scale: a bar through the picture's colours, from -scale through 0 to +scale for a side, from 0 to
     * the scale for the difference, with those values under it.
     */
    private static void scale(BlockPicture.Grid g, String id, int x, int y, int width, Writer out)
            throws IOException {
        StringBuilder b = new StringBuilder("<g class=\"scale\"><defs><linearGradient id=\"" + id + "\">");
        double[] levels = g.signed() ? new double[] {-1, -0.5, 0, 0.5, 1} : new double[] {0, 0.5, 1};
        for (int i = 0; i < levels.length; i++) {
            b.append("<stop offset=\"").append(String.format(Locale.ROOT, "%.2f", i / (levels.length - 1.0)))
                    .append("\" stop-color=\"").append(hex(BlockPicture.rgb(g, levels[i]))).append("\"/>");
        }
        b.append("</linearGradient></defs><rect x=\"").append(x).append("\" y=\"").append(y).append("\" width=\"")
                .append(width).append("\" height=\"10\" fill=\"url(#").append(id).append(")\" stroke=\"#999\"/>");
        String high = String.format(Locale.ROOT, "%.2e", g.scale());
        b.append(label(x, y + 22, "start", g.signed() ? "-" + high : "0"));
        if (g.signed()) {
            b.append(label(x + width / 2, y + 22, "middle", "0"));
        }
        b.append(label(x + width, y + 22, "end", high));
        out.write(b.append("</g>\n").toString());
    }

    private static String label(int x, int y, String anchor, String text) {
        return "<text x=\"" + x + "\" y=\"" + y + "\" font-size=\"10\" text-anchor=\"" + anchor + "\">" + text
                + "</text>";
    }

    private static String hex(int[] rgb) {
        return String.format(Locale.ROOT, "#%02x%02x%02x", rgb[0], rgb[1], rgb[2]);
    }

    private static String markName(char mark) {
        return switch (mark) {
            case BlockJacobians.MISMATCH -> " (mismatch)";
            case BlockJacobians.MASKED -> " (masked)";
            case BlockJacobians.KINK -> " (kink)";
            default -> "";
        };
    }
}
