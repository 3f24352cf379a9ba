package dev.orderly.sim.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * {@code ./orderly} rebuilds the simulator when a main source or pom it is made from is newer than the jar, but it
 * looked only in api, engine, micrometer, grpc, tier2, s3 and sim: the simulator's jar also holds the testing kit
 * ({@code orderly fleet} makes its certificates with {@code TestCertificates}), so a change there ran a stale jar. Every
 * Orderly module the simulator depends on outside test scope, directly or through another, is now watched.
 */
class TheLauncherRebuildsWhenTheTestingKitChangesTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @Test
    void everyModuleTheSimulatorIsBuiltFromIsWatchedByTheLauncher() throws Exception {
        Set<String> watched = watchedByLauncher();
        Set<String> builtFrom = modulesBuiltFrom("sim");
        Set<String> missing = new TreeSet<>(builtFrom);
        missing.removeAll(watched);
        assertTrue(missing.isEmpty(), "./orderly does not rebuild when these modules change: " + missing
                + " (it watches " + watched + "; the simulator is built from " + builtFrom + ")");
    }

    /** The directories of the launcher's staleness check: every {@code "$root/NAME"} of its find command. */
    private static Set<String> watchedByLauncher() throws Exception {
        String script = Files.readString(ROOT.resolve("orderly"));
        int find = script.indexOf("find \"$root/pom.xml\"");
        assertTrue(find >= 0, "the launcher's staleness check was not found");
        String command = script.substring(find, script.indexOf("-newer", find));
        Set<String> dirs = new TreeSet<>();
        Matcher m = Pattern.compile("\"\\$root/([A-Za-z0-9_-]+)\"").matcher(command);
        while (m.find()) {
            dirs.add(m.group(1));
        }
        return dirs;
    }

    /** {@code module} and every Orderly module it depends on outside test scope, transitively. */
    private static Set<String> modulesBuiltFrom(String module) throws Exception {
        Set<String> seen = new TreeSet<>();
        Deque<String> todo = new ArrayDeque<>();
        todo.add(module);
        while (!todo.isEmpty()) {
            String m = todo.pop();
            if (!seen.add(m)) {
                continue;
            }
            Element project = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                    .parse(ROOT.resolve(m).resolve("pom.xml").toFile()).getDocumentElement();
            NodeList dependencies = project.getElementsByTagName("dependency");
            for (int i = 0; i < dependencies.getLength(); i++) {
                Element d = (Element) dependencies.item(i);
                if (d.getParentNode().getParentNode() != project) {
                    continue; // dependencyManagement or a plugin's dependencies
                }
                String artifact = text(d, "artifactId");
                String scope = text(d, "scope");
                if (artifact.startsWith("orderly-") && !"test".equals(scope)) {
                    todo.add(artifact.substring("orderly-".length()));
                }
            }
        }
        return seen;
    }

    private static String text(Element e, String tag) {
        NodeList nodes = e.getElementsByTagName(tag);
        return nodes.getLength() == 0 ? "" : nodes.item(0).getTextContent().strip();
    }
}
