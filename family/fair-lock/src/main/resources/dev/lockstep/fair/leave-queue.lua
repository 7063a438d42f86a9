-- A waiter gives up (timed out, interrupted, failed): it leaves the queue, and if the lock is free
-- the new head is woken, since the release may have been announced to the one leaving.
-- KEYS[1] the lock hash; KEYS[2] the queue; KEYS[3] the waiters' deadlines; KEYS[4] the channel
-- prefix. ARGV[1] the owner leaving; ARGV[2] the release message.
redis.call('lrem', KEYS[2], 0, ARGV[1])
redis.call('zrem', KEYS[3], ARGV[1])
local head = redis.call('lindex', KEYS[2], 0)
if head and redis.call('exists', KEYS[1]) == 0 then
    redis.call('publish', KEYS[4] .. ':' .. head, ARGV[2])
end
return nil
