package dev.gradcheck.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class NumbersTest {

    @Test
    void sciHasThreeSignificantDigits() {
        assertEquals("3.20e-10", Numbers.sci(3.2e-10));
        assertEquals("1.23e+05", Numbers.sci(123456));
        assertEquals("0.00e+00", Numbers.sci(0));
    }

    @Test
    void plainDropsTrailingZeros() {
        assertEquals("0.5", Numbers.plain(0.5));
        assertEquals("-0.25", Numbers.plain(-0.25));
        assertEquals("2", Numbers.plain(2.0));
        assertEquals("1e-10", Numbers.plain(1e-10));
        assertEquals("1.23457e+06", Numbers.plain(1234567));
        assertEquals("0.419974", Numbers.plain(0.41997434161402614));
        assertEquals("0", Numbers.plain(-0.0));
    }

    @Test
    void nonFiniteValues() {
        assertEquals("nan", Numbers.sci(Double.NaN));
        assertEquals("inf", Numbers.plain(Double.POSITIVE_INFINITY));
        assertEquals("-inf", Numbers.sci(Double.NEGATIVE_INFINITY));
        assertEquals("nan ms", Numbers.millis(Double.NaN));
    }

    @Test
    void timesUseFixedDecimals() {
        assertEquals("12.3 ms", Numbers.millis(0.01234));
        assertEquals("4.21 s", Numbers.seconds(4.2149));
    }
}
