/**
 * What a user of Lockstep sees: {@link dev.lockstep.Locks} (one per client, from a stage's entry
 * class), the {@link dev.lockstep.DistLock}s it hands out, their {@link dev.lockstep.LockOptions},
 * the {@link dev.lockstep.Guarantee}s a stage claims, the news of a lost lease
 * ({@link dev.lockstep.LeaseLoss}), the exceptions a caller handles ({@link dev.lockstep.LockException}
 * and its subtypes) and the {@link dev.lockstep.LockObserver} that metrics hang on.
 */
package dev.lockstep;
