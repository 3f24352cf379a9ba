package dev.orderly.archtests;

import static dev.orderly.archtests.Poms.ROOT;
import static dev.orderly.archtests.Poms.child;
import static dev.orderly.archtests.Poms.childElement;
import static dev.orderly.archtests.Poms.pom;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * Found in review (a doc defect): examples/README.md gives {@code mvn -B -pl examples/embedding -am verify} as the way
 * to build and test one example alone, and docs/guide/run-your-own-tier2.md gives
 * {@code mvn -B -pl examples/own-tier2-worker -am verify} with "about a minute on 2 cores, most of it S3Proxy and three
 * JVMs". {@code -am} puts every module the example depends on in the reactor, and {@code verify} runs all their
 * tests first: for the own-tier2-worker example those of api, testing, engine (twice: both request scopes), grpc, s3
 * and tier2, about 7 minutes of tests by the project's own surefire reports, before the example's one test class. A
 * command that builds one example with {@code -am} must keep the other modules' tests out ({@code -Dtest=} the
 * example's tests, with {@code -Dsurefire.failIfNoSpecifiedTests=false}).
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class TheCommandForOneExampleRunsThatExamplesTestsTest {

    private static final Pattern ONE_EXAMPLE = Pattern.compile("mvn [^`\\n]*-pl (examples/[\\w-]+)[^`\\n]*");

    private static List<Path> docs() throws Exception {
        List<Path> docs = new ArrayList<>(List.of(ROOT.resolve("README.md"), ROOT.resolve("examples/README.md")));
        try (Stream<Path> guides = Files.list(ROOT.resolve("docs/guide"))) {
            guides.filter(p -> p.toString().endsWith(".md")).sorted().forEach(docs::add);
        }
        return docs;
    }

    /** artifactId -> module directory, for every module of the root pom and of examples/pom.xml. */
    private static Map<String, Path> modules() throws Exception {
        Map<String, Path> modules = new HashMap<>();
        for (Path parent : List.of(ROOT, ROOT.resolve("examples"))) {
            NodeList list = childElement(pom(parent.resolve("pom.xml")).getDocumentElement(), "modules")
                    .getElementsByTagName("module");
            for (int i = 0; i < list.getLength(); i++) {
                Path dir = parent.resolve(list.item(i).getTextContent().strip());
                if (Files.isRegularFile(dir.resolve("pom.xml"))) {
                    modules.put(child(pom(dir.resolve("pom.xml")).getDocumentElement(), "artifactId"), dir);
                }
            }
        }
        return modules;
    }

    /** The modules of this repository that {@code -am} builds for {@code example}, those with tests of their own. */
    private static Set<String> testedModulesAlsoMade(Path example) throws Exception {
        Map<String, Path> modules = modules();
        Set<String> made = new TreeSet<>();
        Deque<Path> todo = new ArrayDeque<>(List.of(example));
        while (!todo.isEmpty()) {
            Element deps = childElement(pom(todo.pop().resolve("pom.xml")).getDocumentElement(), "dependencies");
            if (deps == null) {
                continue;
            }
            NodeList list = deps.getElementsByTagName("dependency");
            for (int i = 0; i < list.getLength(); i++) {
                Path dir = modules.get(child((Element) list.item(i), "artifactId"));
                if (dir != null && made.add(ROOT.relativize(dir).toString())) {
                    todo.push(dir);
                }
            }
        }
        made.removeIf(m -> !Files.isDirectory(ROOT.resolve(m).resolve("src/test")));
        return made;
    }

    @Test
    void aCommandThatMakesOneExampleWithItsDependenciesRunsOnlyThatExamplesTests() throws Exception {
        List<String> commands = new ArrayList<>();
        List<String> wrong = new ArrayList<>();
        for (Path doc : docs()) {
            Matcher m = ONE_EXAMPLE.matcher(Files.readString(doc));
            while (m.find()) {
                String command = m.group();
                commands.add(command);
                boolean alsoMakes = command.contains(" -am") || command.contains("--also-make");
                boolean runsTests = command.contains(" verify") || command.contains(" test")
                        || command.contains(" install") || command.contains(" package");
                if (alsoMakes && runsTests && !command.contains("-DskipTests") && !command.contains("-Dtest=")) {
                    wrong.add(ROOT.relativize(doc) + ": `" + command.strip() + "` also runs every test of "
                            + testedModulesAlsoMade(ROOT.resolve(m.group(1))));
                }
            }
        }
        assertFalse(commands.isEmpty(), "no command for one example found in the docs");
        assertEquals(List.of(), wrong, "commands for one example that run the tests of the modules it depends on");
    }
}
