package dev.lockstep.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockstep.lab.SvgTimeline.Picture;
import dev.lockstep.lab.SvgTimeline.Tone;
import dev.lockstep.lab.TimelineLayout.Band;
import dev.lockstep.lab.TimelineLayout.Lane;
import dev.lockstep.lab.TimelineLayout.NodeLane;
import dev.lockstep.testkit.history.History;
import dev.lockstep.testkit.history.History.Event;
import dev.lockstep.testkit.history.History.Kind;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Where a timeline picture puts things: numbers only, from fixed histories, without writing any SVG. */
class TimelineLayoutTest {

    private static final long MS = 1_000_000;

    @Test
    void aSpanGoesOnTheFirstRowWithRoomForIt() {
        RowPacker rows = new RowPacker();

        assertEquals(0, rows.place(0, 100));
        assertEquals(1, rows.place(50, 150), "overlaps the first");
        assertEquals(2, rows.place(103, 120), "closer than the gap to the first row's end");
        assertEquals(0, rows.place(106, 200), "the gap after the first row's end");
        assertEquals(1, rows.place(160, 170));
        assertEquals(3, rows.rows());
    }

    @Test
    void theScaleRoundsTheHistoryOutToWholeTicksAcrossThePlot() {
        History history = new History();
        history.recordAt(3 * MS, "A", Kind.NOTE, "first");
        history.recordAt(47 * MS, "A", Kind.NOTE, "last");

        TimeScale scale = TimeScale.of(history.events());

        assertEquals(new TimeScale(0, 50, 5), scale);
        assertEquals(TimelineLayout.LEFT, scale.x(0));
        assertEquals(TimelineLayout.LEFT + TimelineLayout.PLOT / 2.0, scale.x(25 * MS));
        assertEquals(TimelineLayout.LEFT + TimelineLayout.PLOT, scale.x(50 * MS));
        assertEquals(11, scale.ticks().size());
        assertEquals(new TimeScale.Tick(50, TimelineLayout.LEFT + TimelineLayout.PLOT), scale.ticks().get(10));
        assertEquals(new TimeScale(0, 100, 10), TimeScale.of(List.of()), "an empty history still gets an axis");
    }

    @Test
    void ticksAreOneTwoOrFiveTimesAPowerOfTen() {
        assertEquals(2, TimeScale.niceStep(20));
        assertEquals(10, TimeScale.niceStep(100));
        assertEquals(100, TimeScale.niceStep(1000));
        assertEquals(500, TimeScale.niceStep(5000));
        assertEquals(0.1, TimeScale.niceStep(1), 1e-12);
    }

    @Test
    void theHeaderTheLanesTheVerdictAndTheLegendFollowEachOtherDownThePicture() {
        History history = new History();
        history.recordAt(0, "A", Kind.NOTE, "start");
        history.recordAt(100 * MS, "B", Kind.NOTE, "end");

        TimelineLayout layout = TimelineLayout.of(content(history, "One line of story.", "fine"));

        assertEquals(34, layout.titleY());
        assertEquals(56, layout.claimY());
        assertEquals(82, layout.storyY());
        assertEquals(104, layout.axisY(), "below one line of story");
        assertEquals(114, layout.lanesTop(), "no band captions between the axis and the lanes");
        Lane a = layout.lanes().get(0);
        Lane b = layout.lanes().get(1);
        assertEquals(List.of(114, 153, 173), List.of(a.top(), a.bar(), a.bottom()), "one row of labels");
        assertEquals(a.bottom(), b.top());
        assertEquals(b.bottom(), layout.lanesBottom());
        assertEquals(layout.lanesBottom() + 22, layout.verdictTop());
        assertEquals(36, layout.verdictHeight(), "one line");
        assertEquals(layout.verdictTop() + 36 + 26, layout.legend().get(0).y());
        assertEquals(layout.legend().get(0).y() + 20, layout.legend().get(layout.legend().size() - 1).y(), "two rows");
        assertEquals(layout.legend().get(0).y() + 44, layout.height());
    }

    @Test
    void labelsThatWouldOverlapTakeRowsAndOneAtTheRightEdgeRunsLeft() {
        History history = new History();
        history.recordAt(0, "A", Kind.NOTE, "start");
        history.recordAt(1 * MS, "A", Kind.NOTE, "one");
        history.recordAt(1 * MS + 100_000, "A", Kind.NOTE, "two");
        history.recordAt(100 * MS, "A", Kind.NOTE, "end");

        Lane lane = TimelineLayout.of(content(history, "story", "fine")).lanes().get(0);

        List<LaneLabel> labels = lane.labels();
        assertEquals(3, labels.size(), "one and two, a tenth of a pixel apart, share a label");
        assertEquals(List.of(0, 1, 0), labels.stream().map(LaneLabel::row).toList());
        assertEquals(List.of("one", " · ", "two"), labels.get(1).parts().stream().map(Part::text).toList());
        assertEquals(2, labels.get(1).events().size());
        assertFalse(labels.get(0).anchorEnd());
        assertTrue(labels.get(2).anchorEnd(), "at the plot's right end");
        assertEquals(lane.top() + 12 + 2 * TimelineLayout.LABEL_ROW + 12, lane.bar(), "two rows of labels");
        assertEquals(lane.bar() - 16 - TimelineLayout.LABEL_ROW, lane.baseline(labels.get(1)));
    }

    @Test
    void aThreadIsNamedInItsClientsLane() {
        History history = new History();
        history.recordAt(0, "A/t2", Kind.NOTE, "started");

        LaneLabel label = TimelineLayout.of(content(history, "story", "fine")).lanes().get(0).labels().get(0);

        assertEquals(List.of(new Part("t2: ", "#5f6368", false), new Part("started", "#202124", false)), label.parts());
    }

    @Test
    void nodesReportingOneThingAtOneInstantShareALabelAboveTheRedisLane() {
        History history = new History();
        history.node("n1");
        history.node("n2");
        history.recordAt(0, "A", Kind.NOTE, "start");
        history.recordAt(50 * MS, "redis/n1", Kind.DELETED, "orders deleted");
        history.recordAt(51 * MS, "redis/n2", Kind.DELETED, "orders deleted");
        history.recordAt(52 * MS, "redis/n1", Kind.DELETED, "orders deleted");
        history.recordAt(90 * MS, "redis/n2", Kind.DELETED, "orders deleted");

        TimelineLayout layout = TimelineLayout.of(content(history, "story", "fine"));

        Lane redis = layout.lanes().get(1);
        assertEquals(History.REDIS, redis.name());
        assertEquals(List.of("n1, n2, n1: orders deleted", "n2: orders deleted"), redis.labels().stream()
                .map(l -> l.parts().get(0).text()).toList(), "a node that deleted twice at once is named twice");
        List<NodeLane> nodes = layout.nodes();
        assertEquals(layout.lanes().get(0).bottom(), nodes.get(0).top());
        assertEquals(nodes.get(0).top() + 32, nodes.get(1).top());
        assertEquals(nodes.get(1).top() + 32, redis.top(), "the node lanes just above the redis lane");
    }

    @Test
    void twoClientsInsideAtOnceGetABandWithACaptionAboveTheLanes() {
        History history = new History();
        history.recordAt(0, "A", Kind.ENTER, "enter");
        history.recordAt(20 * MS, "B", Kind.ENTER, "enter");
        history.recordAt(30 * MS, "B", Kind.EXIT, "exit");
        history.recordAt(100 * MS, "A", Kind.EXIT, "exit");

        TimelineLayout layout = TimelineLayout.of(content(history, "story", "fine"));

        Band band = layout.bands().get(0);
        assertEquals(1, layout.bands().size());
        assertEquals("A and B both inside", band.text());
        assertEquals(layout.scale().x(20 * MS), band.from());
        assertEquals(layout.scale().x(30 * MS), band.to());
        assertEquals(band.from(), band.textX());
        assertEquals(layout.axisY() + 6 + TimelineLayout.LABEL_ROW, band.textY());
        assertEquals(layout.axisY() + 10 + TimelineLayout.LABEL_ROW, layout.lanesTop(), "one row of captions");
        assertEquals(2, layout.lanes().get(0).sections().size() + layout.lanes().get(1).sections().size());
    }

    @Test
    void textIsCutAtSpacesAndAWordTooLongIsCutWhereItMust() {
        assertEquals(List.of("aaa bbb", "ccc"), TimelineLayout.wrap("aaa bbb ccc", 7));
        assertEquals(List.of("abcd", "efgh", "ij"), TimelineLayout.wrap("abcdefghij", 4));
        assertEquals(List.of("one", "two"), TimelineLayout.wrap("one\n two ", 10));
    }

    @Test
    void theLegendFillsARowBeforeItStartsAnother() {
        List<Legend.Placed> keys = Legend.place(500);

        assertEquals(Legend.Key.values().length, keys.size());
        assertEquals(new Legend.Placed(Legend.Key.BAR, 24, 500), keys.get(0));
        double width = 26 + "inside the critical section".length() * 6.4 + 18;
        assertEquals(24 + width, keys.get(1).x(), 1e-9);
        assertTrue(keys.stream().allMatch(k -> k.x() + k.key().markWidth() < TimelineLayout.WIDTH));
    }

    private static TimelineContent content(History history, String story, String verdict) {
        Map<Event, String> steps = Map.of();
        return new TimelineContent(new Picture("title", "claim", story, history, Tone.OK, verdict, steps));
    }
}
