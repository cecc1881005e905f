package dev.gradcheck.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The JavaCPP setting gradcheck's JVMs make before ND4J loads, unless the user made it. */
class JvmSetupTest {

    private static final String KEY = "org.bytedeco.javacpp.maxPhysicalBytes";

    @Test
    void nativeAllocationsGoWithoutTheResidentSizeReadUnlessTheUserSetALimit() {
        String before = System.getProperty(KEY);
        try {
            System.clearProperty(KEY);
            JvmSetup.nativeAllocations();
            assertEquals("0", System.getProperty(KEY));
            System.setProperty(KEY, "8g");
            JvmSetup.nativeAllocations();
            assertEquals("8g", System.getProperty(KEY), "the user's own limit");
        } finally {
            if (before == null) {
                System.clearProperty(KEY);
            } else {
                System.setProperty(KEY, before);
            }
        }
    }
}
