-- Leave once: count - 1; the last hold deletes the lock and wakes the head of the queue alone, on
-- its own channel, as Redisson's fair unlock does.
-- KEYS[1] the lock hash; KEYS[2] the queue; KEYS[3] the waiters' deadlines; KEYS[4] the channel
-- prefix (a waiter listens on prefix:owner). ARGV[1] the owner field; ARGV[2] the release message.
-- Returns nil when the field is not there (not the owner), 0 when still held, 1 when released.
if redis.call('hexists', KEYS[1], ARGV[1]) == 0 then
    return nil
end
if redis.call('hincrby', KEYS[1], ARGV[1], -1) > 0 then
    return 0
end
redis.call('del', KEYS[1])
local time = redis.call('time')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
while true do
    local head = redis.call('lindex', KEYS[2], 0)
    if not head then
        return 1
    end
    local deadline = redis.call('zscore', KEYS[3], head)
    if deadline and tonumber(deadline) > now then
        redis.call('publish', KEYS[4] .. ':' .. head, ARGV[2])
        return 1
    end
    redis.call('lpop', KEYS[2])
    redis.call('zrem', KEYS[3], head)
end
