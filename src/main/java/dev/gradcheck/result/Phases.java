package dev.gradcheck.result;

/** TEMPORARY instrumentation, never committed. */
public final class Phases {
    public static final String[] NAMES = {"check", "prepare", "draw", "fwdWatch", "target", "modesCot", "elsewhere",
        "firstCalls", "fc.twoGrads", "fc.elsewhere", "fc.linearity", "mode", "sanityRows", "graphRun", "close", "outer", "m.vdirs", "m.projIn", "m.along", "m.backward", "m.projOut", "m.judge", "m.rows", "m.after", "l.homog", "l.onehot", "l.sum", "a.move", "a.eval", "a.restore", "a.read", "a.combine", "p.unit", "p.dir", "p.numer"};
    public static final long[] NS = new long[NAMES.length];
    public static long checks;
    public static int idx(String n) { for (int i = 0; i < NAMES.length; i++) if (NAMES[i].equals(n)) return i; throw new IllegalArgumentException(n); }
    public static final long[] G = new long[NAMES.length];
    private static final java.util.HashMap<Long, Long> AT = new java.util.HashMap<>();
    public static long now() { long t = System.nanoTime(); AT.put(t, NS[idx("graphRun")]); return t; }
    public static void add(String n, long t0) { int i = idx(n); long g0 = AT.getOrDefault(t0, -1L); NS[i] += System.nanoTime() - t0; if (g0 >= 0 && i != idx("graphRun")) { G[i] += NS[idx("graphRun")] - g0; AT.remove(t0);} }
    public static void done() {
        if (++checks % 5000 == 0) {
            StringBuilder b = new StringBuilder("PHASES per check (us):");
            for (int i = 0; i < NAMES.length; i++) { b.append(' ').append(NAMES[i]).append('=').append(String.format("%.1f/%.1f", NS[i] / 1e3 / 5000, G[i] / 1e3 / 5000)); NS[i] = 0; G[i] = 0; }
            System.err.println(b);
        }
    }
}
