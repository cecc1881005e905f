package dev.gradcheck.backend;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.LongFunction;

/**
 * What one check printed, bounded: the first {@link #HEAD} lines and the last {@link #TAIL}, and how many were
 * dropped between. An operator may print without end (3 million lines ran the front end out of memory; one 15 s
 * check put 99 MB into a JSON report); the start says how it began, the end what it said last, before a failure.
 * Thread-safe: a worker's stdout and stderr readers add to one.
 *
 * @param <T> a line as its holder keeps it
 */
public final class CappedLines<T> {

    /** Lines kept from the start of a check's output. */
    public static final int HEAD = 100;
    /** Lines kept from its end. */
    public static final int TAIL = 100;
    /** Characters kept of one line; the rest is cut, and said to be. */
    public static final int MAX_CHARS = 2000;

    private final List<T> head = new ArrayList<>();
    private final Deque<T> tail = new ArrayDeque<>();
    private long dropped;

    public synchronized void add(T line) {
        if (head.size() < HEAD) {
            head.add(line);
            return;
        }
        if (tail.size() == TAIL) {
            tail.removeFirst();
            dropped++;
        }
        tail.addLast(line);
    }

    /** The lines kept, with {@code marker}'s line where some were dropped (given how many). */
    public synchronized List<T> lines(LongFunction<T> marker) {
        List<T> all = new ArrayList<>(head);
        if (dropped > 0) {
            all.add(marker.apply(dropped));
        }
        all.addAll(tail);
        return all;
    }

    public synchronized boolean isEmpty() {
        return head.isEmpty();
    }

    public synchronized void clear() {
        head.clear();
        tail.clear();
        dropped = 0;
    }

    /** The line said where lines were dropped. */
    public static String droppedLine(long dropped) {
        return "[gradcheck: " + dropped + " line" + (dropped == 1 ? "" : "s") + " dropped here; the first " + HEAD
                + " and the last " + TAIL + " printed are kept]";
    }

    /** {@code text} cut to {@link #MAX_CHARS}, saying how much was cut. */
    public static String cut(String text) {
        return text.length() <= MAX_CHARS ? text
                : text.substring(0, MAX_CHARS) + " [gradcheck: " + (text.length() - MAX_CHARS) + " characters cut]";
    }
}
