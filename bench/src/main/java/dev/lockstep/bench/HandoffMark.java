package dev.lockstep.bench;

import jdk.jfr.Category;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * A moment of one fair-lock handoff, as {@link FairHandoff}'s threads see it, written to the same
 * flight recording as the JDK's socket and park events, so all of them share one clock. Off unless
 * a recording enables it (a flag check), and then a fraction of a microsecond each.
 */
@Name("lockstep.HandoffMark")
@Label("Handoff mark")
@Category("Lockstep")
@StackTrace(false)
@Enabled(false)
public class HandoffMark extends Event {

    /** A thread is about to call {@code lock()}. */
    static final String ASKED = "asked";
    /** The holder is about to call {@code unlock()}. */
    static final String RELEASE = "release";
    /** The holder's {@code unlock()} returned. */
    static final String RELEASED = "released";
    /** A waiter's {@code lock()} returned. */
    static final String GRANTED = "granted";
    /** The separate subscriber received a release message. */
    static final String OBSERVED = "observed";

    @Label("What")
    String what;

    @Label("Owner")
    String owner;

    /** Records {@code what} happened to {@code owner} ({@code clientId:threadId}), now, on this thread. */
    static void mark(String what, String owner) {
        HandoffMark mark = new HandoffMark();
        if (mark.isEnabled()) {
            mark.what = what;
            mark.owner = owner;
            mark.commit();
        }
    }
}
