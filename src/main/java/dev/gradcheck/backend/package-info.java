/**
 * Internal (no compatibility promise): where a check runs, as the front end sees it. {@code Backend} runs one check
 * on one engine; {@code EngineSupport} holds what differs per engine; {@code EnginePool} and {@code Dispatcher}
 * spread checks over lanes; a worker JVM is started from {@code WorkerOptions} and spoken to over
 * {@code WorkerProtocol}. No ND4J is reached from here: what runs checks with ND4J loaded is in
 * {@code backend.nd4j}, found at run time for {@code --in-process} ({@code BackendFactory.CPU}) and started by
 * name in a worker JVM ({@code WorkerOptions.WORKER_MAIN}).
 */
package dev.gradcheck.backend;
