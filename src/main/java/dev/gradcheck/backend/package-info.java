/**
 * Internal (no compatibility promise): where a check runs. {@code Backend} runs one check on one engine (in this
 * JVM, or in a worker JVM over a line protocol); {@code EngineSupport} holds what differs per engine;
 * {@code EnginePool} and {@code Dispatcher} spread checks over lanes.
 */
package dev.gradcheck.backend;
