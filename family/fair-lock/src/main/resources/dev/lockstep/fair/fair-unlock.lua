-- Leave once: the count written is the client's (as stage 4's unlock); the last hold deletes the lock and wakes the head of the queue alone, on
-- its own channel, as Redisson's fair unlock does. A dead head does not hear it: the waiters behind
-- it ask again when its deadline passes, and the first to ask drops it.
-- KEYS[1] the lock hash; KEYS[2] the queue; KEYS[3] the channel prefix (a waiter listens on
-- prefix:owner). ARGV[1] the owner field; ARGV[2] the release message; ARGV[3] the caller's holds
-- before this unlock.
-- Returns nil when the field is not there (not the owner), 0 when still held, 1 when released.
if redis.call('hexists', KEYS[1], ARGV[1]) == 0 then
    return nil
end
local left = tonumber(ARGV[3]) - 1
if left > 0 then
    redis.call('hset', KEYS[1], ARGV[1], left)
    return 0
end
redis.call('del', KEYS[1])
local head = redis.call('lindex', KEYS[2], 0)
if head then
    redis.call('publish', KEYS[3] .. ':' .. head, ARGV[2])
end
return 1
