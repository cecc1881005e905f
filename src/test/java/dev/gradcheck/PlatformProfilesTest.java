package dev.gradcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * pom.xml's platform-* profiles: the nd4j-native classifier Maven resolves follows the os.name and os.arch of the
 * JVM running Maven (told here through MAVEN_OPTS, as another machine would report them), and
 * {@code -Djavacpp.platform} wins over them. Offline, a platform whose jars this machine never downloaded still
 * names its classifier, in the resolution error.
 */
@Tag("slow") // a child Maven per case
class PlatformProfilesTest {

    private static final Pattern ND4J_NATIVE = Pattern.compile("nd4j-native:jar:([a-z0-9_-]+):1\\.0\\.0");

    // Windows is not in the list: Maven's own console library loads Windows' kernel32 when os.name says Windows
    @ParameterizedTest(name = "{0} {1} -> {2}")
    @CsvSource({
        "Linux, amd64, linux-x86_64, ",
        "Linux, aarch64, linux-arm64, ",
        "MacOSX, x86_64, macosx-x86_64, ",
        "MacOSX, aarch64, macosx-arm64, ",
        "Linux, amd64, macosx-arm64, macosx-arm64",
    })
    void theNativeClassifierFollowsTheMachineUnlessOneIsNamed(String osName, String osArch, String expected,
                                                              String given) throws Exception {
        List<String> command = new ArrayList<>(List.of(ExampleBuild.maven(), "-B", "-o", "-Dstyle.color=never",
                "-Dmaven.repo.local=" + ExampleBuild.localRepository(), "dependency:list",
                "-DincludeArtifactIds=nd4j-native"));
        if (given != null) {
            command.add("-Djavacpp.platform=" + given);
        }
        ProcessBuilder pb = new ProcessBuilder(command).directory(Path.of("").toAbsolutePath().toFile())
                .redirectErrorStream(true);
        pb.environment().put("MAVEN_OPTS", "-Dos.name=" + osName + " -Dos.arch=" + osArch);
        Process mvn = pb.start();
        String output = new String(mvn.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        mvn.waitFor();
        Set<String> classifiers = new TreeSet<>();
        Matcher m = ND4J_NATIVE.matcher(output);
        while (m.find()) {
            classifiers.add(m.group(1));
        }
        assertEquals(Set.of(expected), classifiers, output);
    }
}
