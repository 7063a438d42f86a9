/**
 * Internal: where stage 7's tokens come from, public only so that tools reading a lock (the lab's
 * {@code inspect}) find its counter. Using the library, reach it through
 * {@link dev.lockstep.v7.FencedLocks}. Not an API, free to change in any release.
 */
package dev.lockstep.v7.internal;
