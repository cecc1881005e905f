/**
 * Internal (no compatibility promise): checks run in this JVM, with ND4J loaded: {@code InProcessBackend} (a
 * worker's checks and validations, {@code --in-process}, the library, bench), {@code WorkerMain} (a worker JVM's
 * request loop), {@code InProcessCpu} (what {@code backend.BackendFactory.CPU} finds) and {@code ChatterFilter}
 * (SameDiff's chatter kept off a library user's stdout). The front end never links to this package.
 */
package dev.gradcheck.backend.nd4j;
