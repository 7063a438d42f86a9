/**
 * Internal: the names stage 3 shares with Redisson, public only so that later stages can keep them.
 * Not an API, free to change in any release.
 */
package dev.lockstep.v3.internal;
