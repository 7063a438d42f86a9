package dev.lockstep.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockstep.testkit.history.History;
import dev.lockstep.testkit.history.History.Kind;
import dev.lockstep.testkit.scenario.Catalog;
import dev.lockstep.testkit.scenario.Outcome;
import dev.lockstep.testkit.scenario.Scenario.Verdict;
import dev.lockstep.testkit.stage.Stage;
import dev.lockstep.v1.SetnxLocks;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

class SvgTimelineTest {

    private static final String SVG = "http://www.w3.org/2000/svg";
    private static final String EXPLANATION =
            "C took the lock while B held it: A's unlock deleted a lock that was B's.";

    @Test
    void isWellFormedSvgWithALanePerActorAndTheViolation() throws Exception {
        Document svg = parse(SvgTimeline.render(foreignUnlock()));

        Element root = svg.getDocumentElement();
        assertEquals(SVG, root.getNamespaceURI());
        assertEquals("svg", root.getLocalName());
        assertEquals(List.of("A", "B", "C", "redis"), lanes(svg));
        Element verdict = group(svg, "verdict");
        assertEquals("violation", verdict.getAttribute("data-tone"));
        assertTrue(verdict.getTextContent().contains("VIOLATION:"), verdict::getTextContent);
        assertTrue(verdict.getTextContent().replaceAll("\\s+", " ").contains(EXPLANATION), verdict::getTextContent);
    }

    @Test
    void marksTheOverlapTheIntruderAndTheStoryStepsAndTheRedisEvents() throws Exception {
        Document svg = parse(SvgTimeline.render(foreignUnlock()));

        assertFalse(byClass(svg, "rect", "overlap").isEmpty(), "a red band where two clients are inside");
        assertEquals(1, byClass(svg, "circle", "violation").size(), "one ring: C's acquisition while B held the lock");
        assertTrue(text(svg).contains("B and C both inside"), () -> text(svg));
        assertTrue(text(svg).contains("← B held it"), () -> text(svg));
        assertEquals(3, byClass(svg, "rect", "section").size(), "one bar per critical section");
        assertFalse(byClass(svg, "g", "event expired").isEmpty());
        assertFalse(byClass(svg, "g", "event deleted").isEmpty());
        assertFalse(byClass(svg, "g", "event fault").isEmpty());
        for (String step : List.of("T1", "T2", "T3", "T4", "T5", "T6")) {
            assertTrue(text(svg).contains(step + " "), step);
        }
    }

    @Test
    void escapesWhatAnEventSaysAndDropsWhatXmlCannotHold() throws Exception {
        History history = new History();
        history.record("A", Kind.NOTE, "a <b> & \"c\" 'd' \u0007bell");
        Outcome outcome = new Outcome(stage(), Catalog.byId("reentry"), false,
                Verdict.violated("x < y & z"), history, null);

        Document svg = parse(SvgTimeline.render(outcome));

        assertTrue(text(svg).contains("a <b> & \"c\" 'd' bell"), () -> text(svg));
        assertTrue(group(svg, "verdict").getTextContent().contains("x < y & z"));
    }

    @Test
    void drawsAnEmptyHistoryAndABrokenRun() throws Exception {
        Outcome broken = new Outcome(stage(), Catalog.byId("failover"), false, null, new History(),
                new IllegalStateException("no replica"));

        Document svg = parse(SvgTimeline.render(broken));

        assertEquals(List.of(), lanes(svg));
        assertEquals("broken", group(svg, "verdict").getAttribute("data-tone"));
        assertTrue(group(svg, "verdict").getTextContent().contains("no replica"));
    }

    /** The T1..T6 story as a v1 run records it, with C walking in beside B. */
    static Outcome foreignUnlock() throws InterruptedException {
        History h = new History();
        long start = h.now();
        h.acquired("A", start, Duration.ofMillis(30), 1, "locked (lease 30 ms)");
        h.record("A", Kind.ENTER, "enter, work outlasts the lease");
        Thread.sleep(35);
        h.record(History.REDIS, Kind.EXPIRED, "orders expired");
        h.acquired("B", start, Duration.ofSeconds(2), 1, "locked (lease 2000 ms)");
        h.record("B", Kind.ENTER, "enter");
        Thread.sleep(30);
        h.record("A", Kind.EXIT, "exit");
        h.unlocked(h.now(), "A", 0, "unlock");
        h.record(History.REDIS, Kind.DELETED, "orders deleted");
        Thread.sleep(5);
        h.acquired("C", h.now(), Duration.ofSeconds(2), 1, "locked (lease 2000 ms)");
        h.record("C", Kind.ENTER, "enter");
        Thread.sleep(10);
        h.record("C", Kind.EXIT, "exit");
        h.unlocked(h.now(), "C", 0, "unlock");
        h.record(History.REDIS, Kind.FAULT, "nothing really: a fault mark");
        Thread.sleep(10);
        h.record("B", Kind.EXIT, "exit");
        h.unlocked(h.now(), "B", 0, "unlock");
        return new Outcome(stage(), Catalog.byId("foreign-unlock"), false, Verdict.violated(EXPLANATION), h, null);
    }

    static Stage stage() {
        return new Stage("v1-setnx", SetnxLocks.class);
    }

    static Document parse(String xml) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setNamespaceAware(true);
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return factory.newDocumentBuilder().parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
    }

    private static List<String> lanes(Document svg) {
        List<String> lanes = new ArrayList<>();
        byClass(svg, "g", "lane").forEach(g -> lanes.add(g.getAttribute("data-lane")));
        return lanes;
    }

    private static Element group(Document svg, String cls) {
        List<Element> groups = byClass(svg, "g", cls);
        assertEquals(1, groups.size(), cls);
        return groups.get(0);
    }

    static List<Element> byClass(Document svg, String tag, String cls) {
        List<Element> found = new ArrayList<>();
        NodeList all = svg.getElementsByTagNameNS(SVG, tag);
        for (int i = 0; i < all.getLength(); i++) {
            Element e = (Element) all.item(i);
            if (e.getAttribute("class").equals(cls)) {
                found.add(e);
            }
        }
        return found;
    }

    private static String text(Document svg) {
        return svg.getDocumentElement().getTextContent();
    }
}
