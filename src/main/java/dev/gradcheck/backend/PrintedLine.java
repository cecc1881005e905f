package dev.gradcheck.backend;

/**
 * One line a worker printed outside its replies.
 *
 * @param text the line
 * @param java printed by Java code (ND4J's logger, a plugin); otherwise native (libnd4j's printf, the JVM itself)
 */
record PrintedLine(String text, boolean java) {}
