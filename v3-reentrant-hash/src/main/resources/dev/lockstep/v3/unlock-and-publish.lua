-- Leave once: count - 1; the last hold deletes the lock and announces the release, as Redisson's
-- unlock does, so waiters listening on the channel (Redisson's, and Lockstep's from stage 5) wake.
-- KEYS[1] the lock hash; KEYS[2] its release channel; ARGV[1] the owner field; ARGV[2] the release message.
-- Returns nil when the field is not there (not the owner), 0 when still held, 1 when released (and published).
if redis.call('hexists', KEYS[1], ARGV[1]) == 0 then
    return nil
end
if redis.call('hincrby', KEYS[1], ARGV[1], -1) > 0 then
    return 0
end
redis.call('del', KEYS[1])
redis.call('publish', KEYS[2], ARGV[2])
return 1
