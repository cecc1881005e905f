package dev.gradcheck.result;

/**
 * Some entries of a Jacobian block (those where one side is nonzero, say): how many, and where.
 *
 * @param count  how many entries
 * @param region where they lie; null when there are none
 */
public record EntrySet(long count, EntryRegion region) {}
