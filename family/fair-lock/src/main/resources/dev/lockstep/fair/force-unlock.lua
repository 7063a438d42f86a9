-- Delete the lock whoever holds it, and wake the head of the queue.
-- KEYS[1] the lock hash; KEYS[2] the queue; KEYS[3] the channel prefix. ARGV[1] the release message.
-- Returns 1 when there was a lock to delete, else 0.
if redis.call('del', KEYS[1]) == 0 then
    return 0
end
local head = redis.call('lindex', KEYS[2], 0)
if head then
    redis.call('publish', KEYS[3] .. ':' .. head, ARGV[1])
end
return 1
