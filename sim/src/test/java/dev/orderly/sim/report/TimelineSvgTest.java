package dev.orderly.sim.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orderly.sim.fleet.TimeScale;
import dev.orderly.sim.run.RunSpec;
import dev.orderly.sim.run.Strategy;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

@Timeout(10)
class TimelineSvgTest {

    private static Document parse(String xml) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        return f.newDocumentBuilder().parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
    }

    private static List<Element> panels(Document doc) {
        NodeList groups = doc.getElementsByTagNameNS("http://www.w3.org/2000/svg", "g");
        List<Element> panels = new java.util.ArrayList<>();
        for (int i = 0; i < groups.getLength(); i++) {
            Element g = (Element) groups.item(i);
            if ("panel".equals(g.getAttribute("class"))) {
                panels.add(g);
            }
        }
        return panels;
    }

    @Test
    void thePictureIsWellFormedSvgWithOnePanelPerStrategyLegendAndAxisLabels(@TempDir Path dir) throws Exception {
        Report report = new Report(List.of(
                Records.run(RunSpec.all(Strategy.ORDERED, 1), 4, Records.tenant("tenant-1", Strategy.ORDERED,
                        new long[] {1, 2, 3}, new long[] {1, 2, 3}, 1, 5, 2, 0)),
                Records.run(RunSpec.all(Strategy.UNORDERED, 1), 8, Records.tenant("tenant-1", Strategy.UNORDERED,
                        new long[] {8, 2, 1}, new long[] {8, 8, 8}, 8, 50, 40, 0))));
        Path file = dir.resolve("nested/timeline.svg");
        new TimelineSvg("a <scenario> & more", report.panels(), 1, TimeScale.REAL_TIME).write(file);

        String xml = Files.readString(file);
        Document doc = parse(xml);
        assertEquals("svg", doc.getDocumentElement().getLocalName());
        List<Element> panels = panels(doc);
        assertEquals(2, panels.size());
        assertTrue(panels.get(0).getTextContent().contains("ordered"), panels.get(0).getTextContent());
        assertTrue(panels.get(1).getTextContent().contains("unordered"), panels.get(1).getTextContent());
        for (Element panel : panels) {
            assertTrue(panel.getTextContent().contains("time (simulated seconds)"), "x axis label");
            assertTrue(panel.getTextContent().contains("segment"), "y axis label");
            assertEquals(3, panel.getElementsByTagNameNS("http://www.w3.org/2000/svg", "circle").getLength(),
                    "one delivery point per segment");
        }
        String text = doc.getDocumentElement().getTextContent();
        for (String legend : List.of("queued", "dialing", "running", "delivered")) {
            assertTrue(text.contains(legend), "legend names " + legend);
        }
        assertTrue(text.contains("a <scenario> & more"), "the heading survives escaping");
    }

    @Test
    void aLongRequestIsCutToTheFirstSegmentsAndTheTitleSaysSo() throws Exception {
        int n = TimelineSvg.MAX_SEGMENTS + 100;
        long[] times = new long[n];
        java.util.Arrays.fill(times, 1);
        Report report = new Report(List.of(Records.run(RunSpec.all(Strategy.ORDERED, 1), 2,
                Records.tenant("tenant-1", Strategy.ORDERED, times, times, 1, n, 0, 0))));
        Document doc = parse(new TimelineSvg("long", report.panels(), 1, TimeScale.REAL_TIME).render());
        Element panel = panels(doc).getFirst();
        assertTrue(panel.getTextContent().contains("first " + TimelineSvg.MAX_SEGMENTS + " of " + n),
                panel.getTextContent());
        assertEquals(TimelineSvg.MAX_SEGMENTS,
                panel.getElementsByTagNameNS("http://www.w3.org/2000/svg", "circle").getLength());
    }

    @Test
    void bugTheLegendLackedTheStoppedBarsAndTheStageLanes() throws Exception {
        Report report = new Report(List.of(
                Records.run(RunSpec.all(Strategy.ORDERED, 1), 4, Records.tenant("tenant-1", Strategy.ORDERED,
                        new long[] {1, 2, 3}, new long[] {1, 2, 3}, 1, 5, 2, 0))));
        String text = parse(new TimelineSvg("h", report.panels(), 2, TimeScale.REAL_TIME).render())
                .getDocumentElement().getTextContent();
        assertTrue(text.contains("stopped: a higher stage covered it"), "the dark-grey bars: " + text);
        assertTrue(text.contains("one thin lane per stage"), "the stage lanes: " + text);

        String oneStage = parse(new TimelineSvg("h", report.panels(), 1, TimeScale.REAL_TIME).render())
                .getDocumentElement().getTextContent();
        assertTrue(!oneStage.contains("lane per stage"), "no lanes to explain with one stage: " + oneStage);
    }

    @Test
    void bugAOnePanelPictureCutItsHeadingOff() throws Exception {
        Report report = new Report(List.of(
                Records.run(RunSpec.all(Strategy.ORDERED, 1), 4, Records.tenant("tenant-1", Strategy.ORDERED,
                        new long[] {1, 2, 3}, new long[] {1, 2, 3}, 1, 5, 2, 0))));
        String heading = "orderly: 2 tenants x 20 segments x 2 stages, 20 workers each, 4 x 4 slots, job 2s, seed 42";
        Element svg = parse(new TimelineSvg(heading, report.panels(), 2, TimeScale.REAL_TIME).render())
                .getDocumentElement();
        // The heading is 15-px bold text: about 8.5 px a character, 770 px here, on a picture one panel (648 px) wide.
        assertTrue(Integer.parseInt(svg.getAttribute("width")) >= heading.length() * 8.5,
                "width " + svg.getAttribute("width") + " for a heading of " + heading.length() + " characters");
    }
}
