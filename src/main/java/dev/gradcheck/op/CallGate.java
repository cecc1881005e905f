package dev.gradcheck.op;


/**
 * How much memory one call of a check's function takes by itself, and how many calls may run at once. ND4J and DL4J
 * allocate inside a call what no budget weighed before it (LocallyConnected2D on 8x64x28x28: 1.4 GB in one backward,
 * docs/benchmarks-scale.md): two such calls on two threads together passed the default budget where one alone did
 * not. So each kind of call (forward, backward) is measured on its first call, which runs alone, and again now and
 * then on a later one that ran alone: the growth of the process's resident memory across the call,
 * or of its peak resident size where the call raised it, less the heap the JVM committed meanwhile. Calls run side by side only while their measured sizes
 * together stay within half the budget (the other half for what the check holds and the garbage between
 * collections); a call larger than that runs alone. A call that took more than the whole budget by itself (and
 * more than {@link #REFUSAL_FLOOR}, below which the JVM's own growth cannot be told from a call's) stops the check:
 * {@link CallOverBudget}, after it and before any later call. (Only a call's first run shows its growth: later ones
 * reuse the memory the first left to the allocator, so the reading cannot be confirmed on the next.) The growth is
 * the process's, so a measured call runs with no call of another check beside it ({@link ProcessCalls}: checks side
 * by side in one JVM, a small run's lanes in backend.InProcessPool; else a call of another lane made while it ran
 * would be counted as its own, and could refuse a spec whose calls fit the budget). A function kept for later
 * checks ({@link FunctionCache}) keeps its measured sizes too ({@link CallSizes}): a later check's gate starts from
 * them ({@link #adopt}), measures only as often as within one check, and refuses what the first check refused.
 */
final class CallGate {

    /** The calls measured apart: a backward usually makes far more than a forward. */
    enum Kind {
        FORWARD, BACKWARD;

        String word() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** A size not measured. */
    static final long UNKNOWN = -1;

    /**
     * Below this a call is never refused: a test JVM's backward of a 64x64 matmul once read 68.3 MiB of the JVM's own
     * growth (its compilers' native arenas) under a 3.5 MiB budget.
     */
    static final long REFUSAL_FLOOR = 128L << 20;

    /**
     * The calls of every gate whose readings are of one process: a measured call waits until no other gate's call
     * runs, and the other gates' calls wait while it runs or waits to (its own gate's calls go on by its own rules).
     */
    static final class ProcessCalls {
        /** The gates of this JVM's checks, whose meters read the JVM's own process. */
        static final ProcessCalls THIS_JVM = new ProcessCalls();

        private int running;
        private int waiting;
        /** The gate whose measured call runs, or waits for the other gates' calls to end; null when none. */
        private CallGate measuring;

        synchronized void enter(CallGate gate, boolean measured) {
            boolean interrupted = false;
            // the waits are as short as another check's call: an interrupted call still runs, and its check stops
            if (measured) {
                while (measuring != null) {
                    interrupted |= waited();
                }
                measuring = gate; // the other gates' new calls wait from now on, so this one is not starved
                while (running > gate.runningHere) {
                    interrupted |= waited();
                }
            } else {
                while (measuring != null && measuring != gate) {
                    interrupted |= waited();
                }
            }
            running++;
            gate.runningHere++;
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }

        /** @return whether the wait was interrupted */
        private boolean waited() {
            waiting++;
            try {
                wait();
                return false;
            } catch (InterruptedException e) {
                return true;
            } finally {
                waiting--;
            }
        }

        /** How many calls wait for another gate's (for tests that make gates meet). */
        synchronized int waiting() {
            return waiting;
        }

        synchronized void leave(CallGate gate, boolean measured) {
            running--;
            gate.runningHere--;
            if (measured) {
                measuring = null;
            }
            notifyAll();
        }
    }

    private final long budget;
    private final long measureEvery;
    private final java.util.function.Supplier<Reading> meter;
    private final ProcessCalls process;
    /** This gate's calls running now, counted by {@link #process}. */
    private int runningHere;
    private final long[] need = {UNKNOWN, UNKNOWN};
    private int inFlight;
    private int unmeasuredInFlight;
    private int waiting;
    private long inFlightBytes;
    private long entries;
    private long lastMeasured = System.nanoTime() - Long.MAX_VALUE / 2;
    private CallOverBudget refused;
    /** The sizes kept with the functions this gate's calls go to, which it starts from and adds to. */
    private final java.util.List<CallSizes> kept = new java.util.ArrayList<>();

    /**
     * @param budget       the check's --max-memory, in bytes
     * @param measureEvery the least nanoseconds between two measured calls of a kind already measured
     */
    CallGate(long budget, long measureEvery) {
        this(budget, measureEvery, Reading::now, ProcessCalls.THIS_JVM);
    }

    /** @param meter a test's own count of what calls made: no other gate's calls are counted in it */
    CallGate(long budget, long measureEvery, java.util.function.Supplier<Reading> meter) {
        this(budget, measureEvery, meter, new ProcessCalls());
    }

    /**
     * @param meter what reads the process's memory: the system's, or a test's own count
     * @param process the gates whose calls the meter's readings count
     */
    CallGate(long budget, long measureEvery, java.util.function.Supplier<Reading> meter, ProcessCalls process) {
        this.budget = budget;
        this.measureEvery = measureEvery;
        this.meter = meter;
        this.process = process;
    }

    /** A call let in: what it was counted as, and the reading before it when it is measured. */
    record Ticket(Kind kind, long weight, long entry, Reading before, long at) { }

    /** What {@link #admit} decided: a ticket but for the reading, taken once the call holds the meter alone. */
    private record Admission(Kind kind, long weight, long entry, boolean measure, long at) { }

    /**
     * Starts from what earlier checks measured of a function whose calls come here, and keeps this gate's own
     * measurements there too: a size over the budget refuses the first call, as the call that measured it did.
     */
    synchronized void adopt(CallSizes sizes) {
        if (kept.contains(sizes)) {
            return;
        }
        kept.add(sizes);
        lastMeasured = Math.max(lastMeasured, sizes.lastMeasured());
        for (Kind kind : Kind.values()) {
            need[kind.ordinal()] = Math.max(need[kind.ordinal()], sizes.need(kind));
            refuseOver(kind, sizes.need(kind));
        }
    }

    private void refuseOver(Kind kind, long took) {
        if (took > Math.max(budget, REFUSAL_FLOOR) && refused == null) {
            refused = new CallOverBudget(kind.word(), took);
        }
    }

    /**
     * Waits until the call may run beside those running, then counts it in; a measured call then waits until no
     * other gate's call runs, and the others wait for it.
     */
    Ticket enter(Kind kind) {
        Admission a = admit(kind);
        process.enter(this, a.measure());
        if (!a.measure()) {
            return new Ticket(a.kind(), a.weight(), a.entry(), null, a.at());
        }
        try {
            return new Ticket(a.kind(), a.weight(), a.entry(), meter.get(), a.at());
        } catch (RuntimeException | Error e) {
            process.leave(this, true);
            counted(new Ticket(a.kind(), a.weight(), a.entry(), null, a.at()), UNKNOWN);
            throw e;
        }
    }

    private synchronized Admission admit(Kind kind) {
        boolean interrupted = false;
        waiting++;
        while (refused == null && !admits(kind) && !interrupted) {
            try {
                wait();
            } catch (InterruptedException e) {
                interrupted = true; // a check stopped at its time limit: the call runs and the check ends
            }
        }
        waiting--;
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        requireWithin();
        long known = need[kind.ordinal()];
        boolean alone = inFlight == 0;
        long now = System.nanoTime();
        boolean measure = alone && (known == UNKNOWN || now - lastMeasured >= measureEvery);
        if (measure) {
            lastMeasured = now;
        }
        inFlight++;
        unmeasuredInFlight += known == UNKNOWN ? 1 : 0;
        inFlightBytes += Math.max(known, 0);
        return new Admission(kind, known, ++entries, measure, now);
    }

    private boolean admits(Kind kind) {
        long known = need[kind.ordinal()];
        return inFlight == 0 || unmeasuredInFlight == 0 && known != UNKNOWN && inFlightBytes + known <= budget / 2;
    }

    /** What the call took, read now that it returned: {@link #UNKNOWN} where it was not measured. */
    long measure(Ticket t) {
        return t.before() == null ? UNKNOWN : t.before().grownBy(meter.get());
    }

    /**
     * Counts the call out, and where it was measured and ran alone (no call came in while it ran), keeps its size;
     * one over the budget refuses every later call. Never throws: the call's own failure, if any, stays the one.
     *
     * @param took what {@link #measure} read, or {@link #UNKNOWN}
     */
    void leave(Ticket t, long took) {
        process.leave(this, t.before() != null);
        counted(t, took);
    }

    private synchronized void counted(Ticket t, long took) {
        inFlight--;
        unmeasuredInFlight -= t.weight() == UNKNOWN ? 1 : 0;
        inFlightBytes -= Math.max(t.weight(), 0);
        if (took != UNKNOWN && entries == t.entry()) {
            int k = t.kind().ordinal();
            need[k] = Math.max(need[k], Math.max(took, 0));
            refuseOver(t.kind(), took);
            kept.forEach(sizes -> sizes.measured(t.kind(), need[k], t.at()));
        }
        notifyAll();
    }

    /** @throws CallOverBudget once a call took more than the budget by itself */
    synchronized void requireWithin() {
        if (refused != null) {
            throw refused;
        }
    }

    /** Whether a call of the kind would be let in now, beside those running (for tests that make calls meet). */
    synchronized boolean wouldAdmit(Kind kind) {
        return admits(kind);
    }

    /** How many calls wait to be let in (each entering call counts while it is checked, however briefly). */
    synchronized int waiting() {
        return waiting;
    }

    /** The most a call of the kind was measured to take, or -1 before its first call. */
    synchronized long need(Kind kind) {
        return need[kind.ordinal()];
    }

    /**
     * The process's resident memory, its peak resident size so far (0 where the system does not tell it), and the
     * heap the JVM has committed and uses.
     */
    record Reading(long resident, long peak, long heapCommitted, long heapUsed) {

        /** A reading with no heap of its own: a test's count of what calls made. */
        Reading(long resident, long peak) {
            this(resident, peak, 0, 0);
        }

        static Reading now() {
            Runtime jvm = Runtime.getRuntime();
            long committed = jvm.totalMemory();
            PeakResident.Sizes sizes = PeakResident.now();
            return new Reading(sizes.resident(), sizes.peak(), committed, committed - jvm.freeMemory());
        }

        /**
         * What a call took between this reading and {@code after}: the resident memory it left, or the peak it
         * reached, less what the Java heap grew by meanwhile (committed, or used where the heap's own pages were
         * touched for the first time). The heap holds the whole process's Java objects: counted, a forward of a
         * 1000x1000 graph in a busy test JVM read 1.3 GiB and its spec was refused; a call's own arrays are native.
         * This can count too little (a collection in the call), never the heap's growth as the call's.
         */
        long grownBy(Reading after) {
            long heapGrowth = Math.max(0, Math.max(after.heapCommitted - heapCommitted, after.heapUsed - heapUsed));
            long left = after.resident - resident;
            long grown = after.peak > peak ? Math.max(left, after.peak - resident) : left;
            return grown - heapGrowth;
        }
    }
}
