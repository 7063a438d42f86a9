/**
 * Internal: stage 4's watchdog and lock, public only so that later stages can build on them.
 * Reading the course, this is where the stage's idea lives; using the library, reach it through
 * {@link dev.lockstep.v4.WatchdogLocks}. Not an API, free to change in any release.
 */
package dev.lockstep.v4.internal;
