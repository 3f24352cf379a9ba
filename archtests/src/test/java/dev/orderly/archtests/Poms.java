package dev.orderly.archtests;

import java.nio.file.Path;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/** The poms of the source tree, read as a user's build reads them, for the tests of how Orderly is published. */
final class Poms {

    /** The repository's root (the tests run in {@code archtests}). */
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    private Poms() {
    }

    static Document pom(Path file) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(false);
        return f.newDocumentBuilder().parse(file.toFile());
    }

    /** The text of the first direct child {@code name} of {@code e}, or null. */
    static String child(Element e, String name) {
        Element c = childElement(e, name);
        return c == null ? null : c.getTextContent().strip();
    }

    /** The first direct child {@code name} of {@code e}, or null. */
    static Element childElement(Element e, String name) {
        for (Node n = e.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element c && c.getTagName().equals(name)) {
                return c;
            }
        }
        return null;
    }
}
