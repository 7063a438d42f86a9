/**
 * Internal: stage 5's lock and its subscriber (one pub/sub connection per client for all its
 * waiters), public only so that later stages can build on them. Reading the course, this is where
 * waiting lives; using the library, reach it through {@link dev.lockstep.v5.PubSubLocks}. Not an
 * API, free to change in any release.
 */
package dev.lockstep.v5.internal;
