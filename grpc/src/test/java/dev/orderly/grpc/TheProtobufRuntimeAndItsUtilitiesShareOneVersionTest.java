package dev.orderly.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Regression: the project pins {@code protobuf-java} 4.x (its generated classes need it), while {@code grpc-services}
 * brought {@code protobuf-java-util} 3.25.x: two major versions of one library on every user's class path, the
 * utilities built against a runtime they did not run on. {@code orderly-grpc} now depends on the utilities at the
 * runtime's version, so a user's build (nearest wins) gets that pair too.
 */
class TheProtobufRuntimeAndItsUtilitiesShareOneVersionTest {

    private static final Pattern JAR = Pattern.compile("(protobuf-java(?:-util)?)-([0-9][^/\\\\]*)\\.jar$");

    @Test
    void theRuntimeAndItsUtilitiesComeFromJarsOfOneVersion() throws Exception {
        String runtime = versionOf(Class.forName("com.google.protobuf.Message"), "protobuf-java");
        String util = versionOf(Class.forName("com.google.protobuf.util.Durations"), "protobuf-java-util");
        assertEquals(runtime, util, "protobuf-java " + runtime + " beside protobuf-java-util " + util);
    }

    private static String versionOf(Class<?> type, String artifact) {
        String jar = type.getProtectionDomain().getCodeSource().getLocation().getPath();
        Matcher m = JAR.matcher(jar);
        assertTrue(m.find() && m.group(1).equals(artifact), type.getName() + " is not from a " + artifact + " jar: "
                + jar);
        return m.group(2);
    }
}
