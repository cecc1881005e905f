package com.example.gradients;

import org.junit.platform.suite.api.IncludeEngines;
import org.junit.platform.suite.api.SelectClasspathResource;
import org.junit.platform.suite.api.Suite;

/** Every spec file under src/test/resources/specs, each spec a test, run by gradcheck's engine. */
@Suite
@IncludeEngines("gradcheck")
@SelectClasspathResource("specs")
public class GradientSpecsTest {
}
