package dev.gradcheck.cli.options;

import java.util.Map;

/**
 * What a command says about its exit codes under --help: only the codes it can end with, each with what it means
 * for that command. Every command carries its own list and Main hands it to picocli, so a new command writes its
 * codes where it is written and {@link ExitCode} stays as it is.
 */
public interface ExitCodeHelp {

    /**
     * The lines of the list, in order: the code as --help prints it ("" for a line that is no code) and what it
     * means here. {@link ExitCode#listed} and {@link ExitCode#successOrUsage} make the usual ones.
     */
    Map<String, String> exitCodeHelp();

    /** Whether several codes can apply at once, the highest winning (commands that run checks): the heading says so. */
    default boolean highestApplies() {
        return false;
    }
}
