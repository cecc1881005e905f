package dev.gradcheck.cli;

import dev.gradcheck.backend.BackendFactory;
import dev.gradcheck.backend.TestWorkerMain;
import java.io.PrintWriter;

/** The gradcheck front end with test workers (which know test-sleep), for tests that need a real process. */
public final class TestFrontEnd {

    private TestFrontEnd() {}

    public static void main(String[] args) {
        PrintWriter out = new PrintWriter(System.out, true);
        PrintWriter err = new PrintWriter(System.err, true);
        int code = Main.commandLine(out, err, BackendFactory.CPU, TestWorkerMain.options()).execute(args);
        out.flush();
        System.exit(code);
    }
}
