/**
 * Internal: the plumbing the stages share (argument checks, waiting, scripts, the bookkeeping of
 * a lock's handle). Public only because the stages live in other modules; not an API, not
 * documented in the published javadoc, and free to change in any release.
 */
package dev.lockstep.internal;
