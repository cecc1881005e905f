package dev.gradcheck.build;

import dev.gradcheck.backend.BackendFactory;
import dev.gradcheck.cli.Main;
import dev.gradcheck.cli.options.ExitCode;
import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine;
import picocli.codegen.docgen.manpage.ManPageGenerator;

/**
 * Writes the man page sources of gradcheck and each of its commands (AsciiDoc with the manpage doctype, by picocli's
 * ManPageGenerator, from the same command model as --help). {@code mvn -Pman package} runs this, then Asciidoctor's
 * manpage backend turns them into {@code target/man/man1/gradcheck.1}, {@code gradcheck-check.1}, ...
 */
public final class ManPages {

    private ManPages() {}

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: ManPages OUTPUT-DIRECTORY");
            System.exit(ExitCode.USAGE.code());
        }
        int status = write(new File(args[0]));
        if (status != 0) {
            System.exit(status);
        }
    }

    /** One {@code NAME.adoc} per command into {@code dir}; returns ManPageGenerator's status (0: written). */
    public static int write(File dir) throws IOException {
        CommandLine root = Main.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()),
                BackendFactory.CPU, null);
        List<CommandSpec> specs = new ArrayList<>();
        specs.add(root.getCommandSpec());
        root.getSubcommands().values().forEach(sub -> specs.add(sub.getCommandSpec()));
        return ManPageGenerator.generateManPage(dir, null, new boolean[0], false, specs.toArray(new CommandSpec[0]));
    }
}
