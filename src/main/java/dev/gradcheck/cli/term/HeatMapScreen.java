package dev.gradcheck.cli.term;

import dev.gradcheck.report.BlockPicture;
import dev.gradcheck.report.UndrawnBlocks;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.report.SafeText;
import dev.gradcheck.report.StatusLabel;
import dev.gradcheck.result.BlockJacobians;
import dev.gradcheck.result.CheckResult;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jline.utils.AttributedCharSequence;
import org.jline.utils.AttributedString;
import org.jline.utils.AttributedStringBuilder;
import org.jline.utils.AttributedStyle;

/**
 * {@code explain}'s screen: for each compared block of a check, the numerical, analytic and difference Jacobians
 * as heat maps ({@link BlockPicture}) with the block's verdict, mismatch count and pattern above them. In colour
 * each cell is a background (JLine's AttributedString, 256 colours), mismatches marked {@code X}; without colour
 * each cell is two characters ({@link BlockPicture#glyph}), so a log or a dumb terminal shows the same picture.
 */
public final class HeatMapScreen {

    /** The width pictures are drawn for when stdout is not a terminal (a pipe, a file) and COLUMNS is not set. */
    public static final int PICTURE_COLUMNS = 120;

    private static final String GAP = "   ";

    private final boolean color;
    private final int width;

    /** @param width the columns available: the three maps side by side when they fit, else one under another */
    public HeatMapScreen(boolean color, int width) {
        this.color = color;
        this.width = width;
    }

    /** @return how many blocks were drawn */
    public int print(CheckResult result, PrintWriter out) {
        // names, messages and block names come from specs and operators: shown, never obeyed by the terminal
        out.println(SafeText.forTerminal(result.name() + "  " + StatusLabel.of(result.status()) + "  ("
                + result.location() + ", " + result.op() + ")"));
        List<BlockPicture> pictures = BlockPicture.of(result.gradients());
        if (pictures.isEmpty()) {
            out.println("  no Jacobian block to show"
                    + (result.message() == null ? "" : ": " + SafeText.forTerminal(firstLine(result.message()))));
        }
        for (GradientResult g : UndrawnBlocks.of(result)) {
            out.println("  " + SafeText.forTerminal(UndrawnBlocks.name(result, g)) + ": not drawn, "
                    + UndrawnBlocks.OVER_BUDGET);
        }
        for (BlockPicture p : pictures) {
            out.println();
            p.description(result.tolerance()).forEach(line -> out.println("  " + SafeText.forTerminal(line)));
            out.println("  " + SafeText.forTerminal(p.axes()));
            lines(p).forEach(line -> out.println("  " + line));
        }
        out.flush();
        return pictures.size();
    }

    /** The three maps, side by side when they fit in the width, with their titles and scales. */
    public List<String> lines(BlockPicture p) {
        List<BlockPicture.Grid> grids = List.of(p.numerical(), p.analytic(), p.difference());
        int mapWidth = Math.max(2 * p.cols(), 24);
        boolean sideBySide = 3 * mapWidth + 2 * GAP.length() + 2 <= width;
        List<String> lines = new ArrayList<>();
        if (sideBySide) {
            lines.add(joined(grids.stream().map(g -> pad(g.title(), mapWidth)).toList()));
            for (int r = 0; r < p.rows(); r++) {
                List<String> cells = new ArrayList<>();
                for (BlockPicture.Grid g : grids) {
                    cells.add(row(p, g, r) + " ".repeat(mapWidth - 2 * p.cols()));
                }
                lines.add(joined(cells));
            }
            lines.add(joined(grids.stream().map(g -> pad(scale(g), mapWidth)).toList()));
        } else {
            for (BlockPicture.Grid g : grids) {
                lines.add(g.title());
                for (int r = 0; r < p.rows(); r++) {
                    lines.add(row(p, g, r));
                }
                lines.add(scale(g));
            }
        }
        lines.add(color ? "(colour: blue negative, red positive, white zero; X mismatch, m masked, k kink)"
                : "(digits: magnitude in ninths of the scale, - negative, . zero; X mismatch, m masked, k kink)");
        return lines;
    }

    private String row(BlockPicture p, BlockPicture.Grid g, int r) {
        AttributedStringBuilder sb = new AttributedStringBuilder();
        for (int c = 0; c < p.cols(); c++) {
            double level = g.levels()[r][c];
            char mark = p.mark(r, c);
            if (!color) {
                sb.append(BlockPicture.glyph(g, level, mark));
                continue;
            }
            String text = "  ";
            if (!g.signed() && mark != BlockJacobians.AGREES) {
                text = mark == BlockJacobians.MISMATCH ? "X " : mark + " ";
            }
            sb.style(AttributedStyle.DEFAULT.background(BlockPicture.xterm256(g, level))
                    .foreground(AttributedStyle.BLACK).bold());
            sb.append(text);
            sb.style(AttributedStyle.DEFAULT);
        }
        AttributedString line = sb.toAttributedString();
        return color ? line.toAnsi(256, AttributedCharSequence.ForceMode.Force256Colors) : line.toString();
    }

    private static String scale(BlockPicture.Grid g) {
        return (g.signed() ? "scale ±" : "scale 0 to ") + String.format(Locale.ROOT, "%.2e", g.scale());
    }

    private static String joined(List<String> parts) {
        return String.join(GAP, parts).stripTrailing();
    }

    private static String pad(String s, int n) {
        return s.length() >= n ? s : s + " ".repeat(n - s.length());
    }

    private static String firstLine(String message) {
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }
}
