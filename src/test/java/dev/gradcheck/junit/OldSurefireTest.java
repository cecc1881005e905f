package dev.gradcheck.junit;

import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.ExampleBuild;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * examples/junit-engine built with the Surefire Maven 3.8 picks when a pom pins none (2.12.4, without JUnit Platform
 * support): the build must fail and say how to fix it, never pass having checked nothing (issue 35 item 2). The
 * example's pom pins Surefire through a property, overridden here as a user's unpinned pom would leave it.
 */
@Tag("slow") // a Maven build in a child process
class OldSurefireTest {

    @TempDir
    Path tmp;

    @Test
    void surefire2124FailsTheBuildSayingToPinSurefire() throws Exception {
        // the build runs offline: Surefire 2.12.4 and its POJO provider must be in the local repository (any build
        // with that Surefire puts them there; gradcheck's own build never uses it)
        Path repo = ExampleBuild.localRepository();
        Assumptions.assumeTrue(Files.isDirectory(repo.resolve("org/apache/maven/surefire/surefire-junit3/2.12.4"))
                && Files.isDirectory(repo.resolve("org/apache/commons/commons-lang3/3.1")),
                "Surefire 2.12.4 is not in " + repo + ": build any project with it once online");
        ExampleBuild build = ExampleBuild.run(Path.of("examples/junit-engine"), tmp, "-Dsurefire.version=2.12.4",
                "test");
        String log = Files.readString(build.log());
        assertTrue(log.contains("maven-surefire-plugin:2.12.4:test"), build::tail); // the old one really ran
        assertNotEquals(0, build.exit(), build::tail);
        assertTrue(log.contains("this Surefire does not run the JUnit Platform, so no spec was checked: pin"
                + " maven-surefire-plugin"), build::tail);
        assertTrue(log.contains("BUILD FAILURE"), build::tail);
    }
}
