package dev.gradcheck.check.twosided;

import dev.gradcheck.check.numeric.JacobianComparison;
import dev.gradcheck.spec.Tolerance;
import java.util.ArrayList;
import java.util.List;

/**
 * A block's figures of the entries judged as they came ({@link EntryValues}), a tally per group of columns: a group
 * judged again (a round of locating that evaluates only the groups its located lines touch, {@link TouchedGroups})
 * takes back its entries by dropping its tally, which a single tally of maxima could not. The block's figures are
 * the tallies merged ({@link JacobianComparison.Tally#merge}), the same whatever the split.
 */
final class GroupTallies {

    private final Tolerance rule;
    /** By the group of columns an entry was judged in; null where none was. */
    private final List<JacobianComparison.Tally> byGroup = new ArrayList<>();
    /** The entries judged on a rounded analytic value ({@link RoundedMaxima}), whatever their group. */
    private final JacobianComparison.Tally rounded;

    GroupTallies(Tolerance rule) {
        this.rule = rule;
        this.rounded = new JacobianComparison.Tally(rule);
    }

    /** Group g's tally, started where it has none. */
    JacobianComparison.Tally of(int g) {
        while (byGroup.size() <= g) {
            byGroup.add(null);
        }
        JacobianComparison.Tally t = byGroup.get(g);
        if (t == null) {
            t = new JacobianComparison.Tally(rule);
            byGroup.set(g, t);
        }
        return t;
    }

    /** The tally that entries let through on a rounded analytic value go into. */
    JacobianComparison.Tally rounded() {
        return rounded;
    }

    /** Drops group g's entries: it is judged again. */
    void drop(int g) {
        if (g < byGroup.size()) {
            byGroup.set(g, null);
        }
    }

    /** Drops the entries of every group from {@code g} on. */
    void dropFrom(int g) {
        for (int k = g; k < byGroup.size(); k++) {
            byGroup.set(k, null);
        }
    }

    /** Every entry judged as it came, in one fresh tally (the report adds the entries sent on to it). */
    JacobianComparison.Tally merged() {
        JacobianComparison.Tally all = new JacobianComparison.Tally(rule);
        all.merge(rounded);
        for (JacobianComparison.Tally t : byGroup) {
            if (t != null) {
                all.merge(t);
            }
        }
        return all;
    }
}
