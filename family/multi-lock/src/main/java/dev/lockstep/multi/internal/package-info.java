/**
 * Internal: the lock over the names one node serves, taken in one script, and the per-name hold
 * counts its scripts write. Using the library, reach it through {@link dev.lockstep.multi.MultiNameLocks}.
 * Not an API, free to change in any release.
 */
package dev.lockstep.multi.internal;
