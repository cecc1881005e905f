package dev.gradcheck.check.dense;

/**
 * One entry of a block that sits at a kink of its output element.
 *
 * @param row        its position among the block's rows; {@code flatRow} is the output element
 * @param col        its position among the block's columns; {@code flatCol} is the input element
 * @param analytic   the backward's value there
 * @param slopeMinus the one-sided slope from below along the input element
 * @param slopePlus  the one-sided slope from above
 */
public record KinkEntry(String input, int row, int flatRow, int col, int flatCol, double analytic, double slopeMinus,
                        double slopePlus) {}
