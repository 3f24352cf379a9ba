package dev.orderly.archtests;

import static dev.orderly.archtests.Poms.ROOT;
import static dev.orderly.archtests.Poms.child;
import static dev.orderly.archtests.Poms.childElement;
import static dev.orderly.archtests.Poms.pom;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * Regression: {@code orderly-bom} managed {@code orderly-s3} but not its test jar, which the build installs with it
 * ({@code maven-jar-plugin}'s {@code test-jar} goal in {@code s3/pom.xml}) and which the guide to your own tier2
 * (docs/guide/run-your-own-tier2.md, section 4) and {@code examples/own-tier2-worker} use for {@code S3ProxyFixture}.
 * The example takes it without a version only because it inherits {@code orderly-parent}; an embedder who imports
 * the BOM, as the README says, and copies that dependency got "'dependencies.dependency.version' for
 * dev.orderly:orderly-s3:test-jar is missing". Every jar the build installs, of every type, is now managed.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class TheBomManagesEveryJarAnExampleTakesTest {

    /** {@code artifactId:type} of every dependency the BOM manages. */
    private static Set<String> managedByTheBom() throws Exception {
        Element bom = pom(ROOT.resolve("bom/pom.xml")).getDocumentElement();
        NodeList deps = childElement(childElement(bom, "dependencyManagement"), "dependencies")
                .getElementsByTagName("dependency");
        Set<String> managed = new TreeSet<>();
        for (int i = 0; i < deps.getLength(); i++) {
            Element d = (Element) deps.item(i);
            String type = child(d, "type");
            managed.add(child(d, "artifactId") + ":" + (type == null ? "jar" : type));
        }
        return managed;
    }

    @Test
    void everyTestJarTheBuildInstallsIsManaged() throws Exception {
        Set<String> installedTestJars = new TreeSet<>();
        Element root = pom(ROOT.resolve("pom.xml")).getDocumentElement();
        NodeList modules = childElement(root, "modules").getElementsByTagName("module");
        for (int i = 0; i < modules.getLength(); i++) {
            Path file = ROOT.resolve(modules.item(i).getTextContent().strip()).resolve("pom.xml");
            Document d = pom(file);
            Element properties = childElement(d.getDocumentElement(), "properties");
            boolean installed = properties == null || !"true".equals(child(properties, "maven.install.skip"));
            if (installed && Files.readString(file).contains("<goal>test-jar</goal>")) {
                installedTestJars.add(child(d.getDocumentElement(), "artifactId") + ":test-jar");
            }
        }
        assertTrue(installedTestJars.contains("orderly-s3:test-jar"), installedTestJars.toString());
        Set<String> missing = new TreeSet<>(installedTestJars);
        missing.removeAll(managedByTheBom());
        assertEquals(Set.of(), missing, "test jars the build installs that the BOM does not manage");
    }

    @Test
    void everyOrderlyJarAnExampleTakesWithoutAVersionIsManaged() throws Exception {
        List<Path> examplePoms = new ArrayList<>();
        try (Stream<Path> dirs = Files.list(ROOT.resolve("examples"))) {
            dirs.map(d -> d.resolve("pom.xml")).filter(Files::isRegularFile).forEach(examplePoms::add);
        }
        Set<String> managed = managedByTheBom();
        Set<String> missing = new TreeSet<>();
        for (Path file : examplePoms) {
            Element dependencies = childElement(pom(file).getDocumentElement(), "dependencies");
            if (dependencies == null) {
                continue;
            }
            NodeList deps = dependencies.getElementsByTagName("dependency");
            for (int i = 0; i < deps.getLength(); i++) {
                Element d = (Element) deps.item(i);
                if ("dev.orderly".equals(child(d, "groupId")) && child(d, "version") == null) {
                    String type = child(d, "type");
                    String jar = child(d, "artifactId") + ":" + (type == null ? "jar" : type);
                    if (!managed.contains(jar)) {
                        missing.add(jar + " (" + ROOT.relativize(file) + ")");
                    }
                }
            }
        }
        assertEquals(Set.of(), missing, "what an example takes from Orderly without a version, the BOM must manage");
    }
}
