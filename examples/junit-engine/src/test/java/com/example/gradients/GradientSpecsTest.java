package com.example.gradients;

import org.junit.platform.suite.api.IncludeEngines;
import org.junit.platform.suite.api.SelectClasspathResource;
import org.junit.platform.suite.api.Suite;

/** Every spec file under src/test/resources/specs, each spec a test, run by gradcheck's engine. */
@Suite
@IncludeEngines("gradcheck")
@SelectClasspathResource("specs")
public class GradientSpecsTest {

    /**
     * Never run by the JUnit Platform (it is no {@code @Test}). A Surefire without JUnit Platform support (2.12.4,
     * what Maven 3.8 uses when the pom pins none) runs the public {@code test*} methods of {@code *Test} classes
     * instead, and would report 0 tests and a green build with every spec unchecked: this fails that build, saying
     * how to fix it.
     */
    public void testThatTheJUnitPlatformRunsThisSuite() {
        throw new AssertionError("this Surefire does not run the JUnit Platform, so no spec was checked: pin"
                + " maven-surefire-plugin 3.5.2 (or any 3.x) in the pom's <build><plugins>; see gradcheck's"
                + " docs/library-api.md");
    }
}
