package dev.gradcheck.backend;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/** The last lines a worker printed (stderr and unframed stdout), for the report of its crash. */
final class OutputTail {

    private final int capacity;
    private final Deque<String> lines = new ArrayDeque<>();

    OutputTail(int capacity) {
        this.capacity = capacity;
    }

    /** @return whether the line was worth keeping (not blank, not chatter) */
    synchronized boolean add(String line) {
        if (line.isBlank() || line.startsWith(EngineOutput.CHATTER)) {
            return false;
        }
        if (lines.size() == capacity) {
            lines.removeFirst();
        }
        lines.addLast(line.stripTrailing());
        return true;
    }

    synchronized List<String> lines() {
        return List.copyOf(lines);
    }

    synchronized void clear() {
        lines.clear();
    }
}
