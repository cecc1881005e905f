package dev.gradcheck.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.cli.options.RepositoryRoot;
import dev.gradcheck.cli.options.Workspace;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * GitHub places an annotation by the file's path in the repository: a run from a subdirectory must name
 * specs/reductions/cumulative.yaml, not cumulative.yaml, whether the root is $GITHUB_WORKSPACE or the git root.
 */
class GithubAnnotationPathTest {

    @TempDir
    Path repo;
    Path sub;
    Path spec;

    @BeforeEach
    void repository() throws Exception {
        sub = Files.createDirectories(repo.resolve("specs/reductions"));
        spec = sub.resolve("cumulative.yaml");
        Files.writeString(spec, "name: cumsum-bad\nop: cumsum\ninputs:\n  x: {shape: [-2]}\n"); // invalid: annotated
    }

    private static Map<String, String> env(String githubWorkspace) {
        Map<String, String> env = new HashMap<>();
        env.put(RepositoryRoot.GITHUB_WORKSPACE, githubWorkspace);
        return env;
    }

    @Test
    void relativeToGithubWorkspaceFromASubdirectory() {
        Cli r = Cli.runIn(Workspace.at(sub, env(repo.toString())), "check", spec.toString(), "--format", "github");
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.out().startsWith("::error file=specs/reductions/cumulative.yaml,line=1,col=1,"), r.out());
    }

    @Test
    void relativeToTheGitRootWithoutGithub() throws Exception {
        Files.createDirectories(repo.resolve(".git"));
        Cli r = Cli.runIn(Workspace.at(sub, env(null)), "check", spec.toString(), "--format", "github");
        assertTrue(r.out().startsWith("::error file=specs/reductions/cumulative.yaml,line=1,col=1,"), r.out());
    }

    @Test
    void aRelativeFileIsReadFromTheWorkingDirectory() throws Exception {
        RepositoryRoot root = RepositoryRoot.of(Workspace.at(sub, env(repo.toString()))).orElseThrow();
        assertEquals("specs/reductions/cumulative.yaml", root.relative(sub, "cumulative.yaml"));
        assertEquals("specs/x.yaml", root.relative(sub, "../x.yaml"));
        assertNull(root.relative(sub, "/elsewhere/x.yaml"), "outside the repository: the project path is used");
        Files.createDirectories(repo.resolve(".git"));
        assertEquals(repo.toAbsolutePath().normalize(),
                RepositoryRoot.of(Workspace.at(sub, env(""))).orElseThrow().dir(), "a blank variable is unset");
    }
}
