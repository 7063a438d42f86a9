-- Leave once: count - 1; the last hold deletes the lock and wakes the head of the queue alone, on
-- its own channel, as Redisson's fair unlock does. A dead head does not hear it: the waiters behind
-- it ask again when its deadline passes, and the first to ask drops it.
-- KEYS[1] the lock hash; KEYS[2] the queue; KEYS[3] the channel prefix (a waiter listens on
-- prefix:owner). ARGV[1] the owner field; ARGV[2] the release message.
-- Returns nil when the field is not there (not the owner), 0 when still held, 1 when released.
local holds = redis.call('hget', KEYS[1], ARGV[1])
if not holds then
    return nil
end
if tonumber(holds) > 1 then
    redis.call('hincrby', KEYS[1], ARGV[1], -1)
    return 0
end
redis.call('del', KEYS[1])
local head = redis.call('lindex', KEYS[2], 0)
if head then
    redis.call('publish', KEYS[3] .. ':' .. head, ARGV[2])
end
return 1
