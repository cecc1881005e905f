package dev.gradcheck.spec;

/** A spec value together with where it was written, so later rooms (op/) can still point at it. */
public record Located<T>(T value, SourcePos pos) {}
