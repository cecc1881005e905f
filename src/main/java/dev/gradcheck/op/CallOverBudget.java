package dev.gradcheck.op;

/**
 * One call of a check's function took more memory by itself than the check's budget (--max-memory): measured
 * across the call as the growth of the process's resident memory, while no other call of the function ran. Thrown
 * after that call, and before every later call of the function, so that the check stops rather than overrun the
 * budget again; the checker refuses the spec with the figure, as it refuses a spec whose arrays do not fit.
 */
public final class CallOverBudget extends RuntimeException {

    private final String kind;
    private final long needed;

    /**
     * @param kind   which call it was: {@code forward} or {@code backward}
     * @param needed the bytes the call took
     */
    public CallOverBudget(String kind, long needed) {
        super("one " + kind + " call took " + needed + " bytes", null, false, false);
        this.kind = kind;
        this.needed = needed;
    }

    /** {@code forward} or {@code backward}. */
    public String kind() {
        return kind;
    }

    /** The bytes the call took by itself. */
    public long needed() {
        return needed;
    }
}
