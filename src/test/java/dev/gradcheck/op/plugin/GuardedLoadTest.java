package dev.gradcheck.op.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Plugin loading under a time limit, in this JVM (issue 27, defect 9). An exit while loading needs a JVM of its
 * own: {@code cli/PluginCliTest}.
 */
class GuardedLoadTest {

    @TempDir
    static Path dir;

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS) // a hang guard: the load used to block for the constructor's 600 s
    void aPluginThatBlocksWhileLoadingIsAProblemNamingItOnceTheLimitIsPast() throws IOException {
        Path jar = PluginJars.loadingJar(dir, "testplugins.SleepsOnLoad");
        PluginException e = assertThrows(PluginException.class,
                () -> GuardedLoad.load(List.of(jar), Duration.ofMillis(500), new PrintWriter(new StringWriter())));
        assertEquals(List.of("plugin testplugins.SleepsOnLoad (from " + jar.toAbsolutePath().normalize()
                + ") did not finish loading within 0.5 s: its constructor or its metadata (name(), inputNames(),"
                + " ...) blocks"), e.problems());
    }

    @Test
    void aPluginThatLoadsInTimeLoadsAsWithoutTheLimit() throws Exception {
        Path jar = PluginJars.jar(PluginJars.classes(dir.resolve("ops"), PluginJars.TEST_OPERATORS,
                PluginJars.TEST_PROVIDERS), dir.resolve("ops.jar"));
        PluginSet set = GuardedLoad.load(List.of(jar), Duration.ofSeconds(60), new PrintWriter(new StringWriter()));
        assertEquals(PluginLoader.load(List.of(jar)).all().stream().map(PluginOperator::name).toList(),
                set.all().stream().map(PluginOperator::name).toList());
        assertSame(PluginSet.EMPTY, GuardedLoad.load(List.of(), Duration.ofSeconds(1), null));
    }

    @Test
    void aPluginCallingExitIsToldFromASignalByTheFramesBelowTheExit() {
        StackTraceElement plugin = new StackTraceElement(PluginLoader.LOADER_NAME + "/work/x.jar", null, null,
                "testplugins.ExitsOnLoad", "<init>", "ExitsOnLoad.java", 3);
        StackTraceElement[] byPlugin = {frame("java.lang.Shutdown", "exit"), frame("java.lang.Runtime", "exit"),
            frame("java.lang.System", "exit"), plugin, frame("dev.gradcheck.op.plugin.PluginLoader", "instantiate")};
        assertEquals(plugin, GuardedLoad.pluginCallerOfExit(byPlugin));
        StackTraceElement[] bySignal = {frame("java.lang.Runtime", "exit"), frame("java.lang.System", "exit"),
            new StackTraceElement("app", null, null, "dev.gradcheck.run.Signals", "handOn", "Signals.java", 50)};
        assertNull(GuardedLoad.pluginCallerOfExit(bySignal), "gradcheck's own exit on a signal");
        StackTraceElement[] beside = {frame("java.lang.Thread", "sleep"), plugin};
        assertNull(GuardedLoad.pluginCallerOfExit(beside), "a plugin's frame with no exit above it");
    }

    private static StackTraceElement frame(String type, String method) {
        return new StackTraceElement(null, "java.base", null, type, method, null, -1);
    }
}
