package dev.orderly.archtests;

import static dev.orderly.archtests.Poms.ROOT;
import static dev.orderly.archtests.Poms.child;
import static dev.orderly.archtests.Poms.childElement;
import static dev.orderly.archtests.Poms.pom;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * Orderly is published like a library people depend on: {@code orderly-bom} manages exactly the published
 * artifacts (those the build installs) and nothing else, at the parent's version; every jar names its module
 * ({@code api} and {@code engine} by a {@code module-info}, the others by an {@code Automatic-Module-Name}); the parent carries the POM metadata a repository asks for. Read from the poms in the
 * source tree, as a user's build reads them.
 */
class PublishingTest {

    private static List<String> modules() throws Exception {
        Element root = pom(ROOT.resolve("pom.xml")).getDocumentElement();
        NodeList list = childElement(root, "modules").getElementsByTagName("module");
        List<String> modules = new ArrayList<>();
        for (int i = 0; i < list.getLength(); i++) {
            modules.add(list.item(i).getTextContent().strip());
        }
        return modules;
    }

    private static boolean published(Document pom) {
        Element properties = childElement(pom.getDocumentElement(), "properties");
        return properties == null || !"true".equals(child(properties, "maven.install.skip"));
    }

    @Test
    void bomManagesExactlyThePublishedArtifactsAtTheParentsVersion() throws Exception {
        Element parent = pom(ROOT.resolve("pom.xml")).getDocumentElement();
        Element bom = pom(ROOT.resolve("bom/pom.xml")).getDocumentElement();
        assertEquals(null, childElement(bom, "parent"), "the BOM must not inherit the parent's dependencyManagement");
        assertEquals(child(parent, "version"), child(bom, "version"), "the BOM's version");
        Set<String> expected = new TreeSet<>();
        for (String m : modules()) {
            Document d = pom(ROOT.resolve(m).resolve("pom.xml"));
            String packaging = child(d.getDocumentElement(), "packaging");
            if (published(d) && !"pom".equals(packaging)) {
                expected.add(child(d.getDocumentElement(), "artifactId"));
            }
        }
        Set<String> managed = new TreeSet<>();
        NodeList deps = childElement(childElement(bom, "dependencyManagement"), "dependencies")
                .getElementsByTagName("dependency");
        for (int i = 0; i < deps.getLength(); i++) {
            Element d = (Element) deps.item(i);
            assertEquals("dev.orderly", child(d, "groupId"), "the BOM manages Orderly's own artifacts only");
            assertEquals("${project.version}", child(d, "version"));
            managed.add(child(d, "artifactId"));
        }
        assertTrue(expected.containsAll(Set.of("orderly-api", "orderly-engine", "orderly-grpc", "orderly-s3",
                "orderly-tier2")), expected.toString());
        assertEquals(expected, managed);
    }

    @Test
    void everyJarNamesItsModule() throws Exception {
        for (String m : modules()) {
            Path file = ROOT.resolve(m).resolve("pom.xml");
            Document d = pom(file);
            if ("pom".equals(child(d.getDocumentElement(), "packaging"))) {
                continue;
            }
            String text = Files.readString(file);
            Path descriptor = ROOT.resolve(m).resolve("src/main/module-info/module-info.java");
            if (Files.exists(descriptor)) {
                assertTrue(Files.readString(descriptor).contains("module dev.orderly."), descriptor + " names no dev.orderly module");
                assertFalse(text.contains("<Automatic-Module-Name>"), m + " has a module-info and an Automatic-Module-Name");
                continue;
            }
            assertTrue(text.contains("<Automatic-Module-Name>dev.orderly."), m + " names no Automatic-Module-Name");
        }
    }

    @Test
    void parentCarriesTheMetadataARepositoryAsksFor() throws Exception {
        Element parent = pom(ROOT.resolve("pom.xml")).getDocumentElement();
        for (String field : List.of("url", "description", "licenses", "developers", "scm")) {
            assertFalse(childElement(parent, field) == null, "the parent pom lacks <" + field + ">");
        }
        assertTrue(child(childElement(parent, "scm"), "connection").startsWith("scm:git:"));
    }
}
