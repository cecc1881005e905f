package dev.gradcheck.op;

/**
 * What one built function's calls were measured to take, kept with the function for the checks it serves after
 * the one that measured them ({@link FunctionCache} lends a built function to check after check of its spec).
 * A call's growth shows only on the function's first call of its kind: later ones reuse what the first left to the
 * allocator, so a second check measuring the same function afresh would read less than the first, and a function
 * once refused for a call over the budget could pass a check later. Kept here, a later check's {@link CallGate}
 * starts from the first check's figures, refuses what it refused, and reads the process's memory only as often as
 * one check's gate would (each reading costs 10-15 µs, a quarter of a small fast check's own work).
 */
public final class CallSizes {

    private final long[] need = {CallGate.UNKNOWN, CallGate.UNKNOWN};
    private long lastMeasured = System.nanoTime() - Long.MAX_VALUE / 2;

    /** The most a call of the kind was measured to take, or {@link CallGate#UNKNOWN}. */
    synchronized long need(CallGate.Kind kind) {
        return need[kind.ordinal()];
    }

    /** When a call of this function was last measured ({@link System#nanoTime}). */
    synchronized long lastMeasured() {
        return lastMeasured;
    }

    /** A measured call: its size (the most of the kind so far is kept) and when it was measured. */
    synchronized void measured(CallGate.Kind kind, long bytes, long at) {
        need[kind.ordinal()] = Math.max(need[kind.ordinal()], bytes);
        lastMeasured = Math.max(lastMeasured, at);
    }
}
