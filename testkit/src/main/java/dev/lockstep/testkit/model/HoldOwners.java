package dev.lockstep.testkit.model;

import dev.lockstep.LockHold;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A hold handle's owner number: what Redis and the loss signals know it by ({@code LeaseLoss.threadId()},
 * the field {@code clientId:-N}). The API keeps it internal; a handle names itself {@code hold N of lock 'name'}.
 */
public final class HoldOwners {

    private static final Pattern NAME = Pattern.compile("hold (\\d+) of lock");

    private HoldOwners() {
    }

    /** {@code hold}'s owner number, negative, as its field and its loss signals carry it. */
    public static long ownerNumber(LockHold hold) {
        Matcher name = NAME.matcher(hold.toString());
        if (!name.find()) {
            throw new IllegalStateException("a hold that does not name its owner number: " + hold);
        }
        return -Long.parseLong(name.group(1));
    }
}
