package dev.gradcheck.check.colouring;

/**
 * A group's two lightest members, by the weights its evaluation applied: what is left of an entry once its owner's
 * share is taken away is judged as the value of the lightest other member, which, divided by the smallest weight,
 * is judged most strictly. Ties go to the earlier member.
 *
 * @param first  the position of the smallest weight
 * @param second the position of the second smallest (-1 for a group of one)
 */
public record Lightest(int first, int second) {

    public static Lightest of(double[] w) {
        int min1 = 0;
        int min2 = -1;
        for (int k = 1; k < w.length; k++) {
            if (w[k] < w[min1]) {
                min2 = min1;
                min1 = k;
            } else if (min2 < 0 || w[k] < w[min2]) {
                min2 = k;
            }
        }
        return new Lightest(min1, min2);
    }

    /** The strictest member other than {@code member}: the lightest, or the second lightest where it is that. */
    public int otherThan(int member) {
        return member == first ? second : first;
    }
}
