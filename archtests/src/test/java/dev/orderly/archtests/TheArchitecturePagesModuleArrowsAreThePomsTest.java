package dev.orderly.archtests;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * Found in review (a doc defect): docs/ARCHITECTURE.md's module graph draws {@code api <- engine <- grpc <- tier2 <-
 * sim}, and its module table and its gRPC section say grpc "depends on api and dev.orderly.engine", but grpc's pom
 * takes {@code orderly-engine} in test scope only and {@code GrpcRules.grpcSeesOnlyTheApi} forbids its classes any
 * engine class. A reader who takes the page's word that {@code orderly-grpc} brings the engine, and adds only it, has
 * no {@code Orderly.engine()} to call. This reads each arrow of the graph that is not marked as tests-only and checks
 * that the module at its tail takes the module at its head in compile scope, as a user's build would see it.
 */
class TheArchitecturePagesModuleArrowsAreThePomsTest {

    @Test
    void everyArrowOfTheModuleGraphIsACompileDependency() throws Exception {
        String page = Files.readString(Poms.ROOT.resolve("docs").resolve("ARCHITECTURE.md"));
        int section = page.indexOf("\n## Modules\n");
        assertTrue(section > 0, "ARCHITECTURE.md has no '## Modules' section");
        int open = page.indexOf("```\n", section) + "```\n".length();
        String graph = page.substring(open, page.indexOf("```", open));

        List<String> checked = new ArrayList<>();
        List<String> wrong = new ArrayList<>();
        for (String line : graph.split("\n")) {
            int note = line.indexOf('(');
            if (note >= 0 && line.substring(note).startsWith("(tests only)")) {
                continue; // drawn as a test dependency
            }
            String[] groups = (note >= 0 ? line.substring(0, note) : line).split("<-");
            for (int i = 0; i + 1 < groups.length; i++) {
                for (String head : groups[i].split(",")) {
                    for (String tail : groups[i + 1].split(",")) {
                        String from = tail.strip();
                        String to = head.strip();
                        Path pom = Poms.ROOT.resolve(from).resolve("pom.xml");
                        if (!Files.exists(pom) || !Files.exists(Poms.ROOT.resolve(to).resolve("pom.xml"))) {
                            continue; // "engine's tests" and the like: not a module
                        }
                        checked.add(to + " <- " + from);
                        String scope = scopeOf(pom, "orderly-" + to);
                        if (scope == null || !scope.equals("compile")) {
                            wrong.add(to + " <- " + from + ": " + from + "/pom.xml takes orderly-" + to
                                    + (scope == null ? " not at all" : " in " + scope + " scope only"));
                        }
                    }
                }
            }
        }
        assertTrue(checked.size() >= 8, "read too few arrows from the graph: " + checked);
        assertTrue(wrong.isEmpty(), "ARCHITECTURE.md's module graph draws dependencies the poms do not have: "
                + wrong);
    }

    /** The scope in which {@code pom} takes {@code artifactId} ("compile" when none is given), or null. */
    private static String scopeOf(Path pom, String artifactId) throws Exception {
        Document doc = Poms.pom(pom);
        Element dependencies = Poms.childElement(doc.getDocumentElement(), "dependencies");
        if (dependencies == null) {
            return null;
        }
        NodeList all = dependencies.getElementsByTagName("dependency");
        String best = null;
        for (int i = 0; i < all.getLength(); i++) {
            Element d = (Element) all.item(i);
            if (artifactId.equals(Poms.child(d, "artifactId")) && Poms.child(d, "type") == null
                    && Poms.child(d, "classifier") == null) {
                String scope = Poms.child(d, "scope");
                best = scope == null ? "compile" : scope;
            }
        }
        return best;
    }
}
