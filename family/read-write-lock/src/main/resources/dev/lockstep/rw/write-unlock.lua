-- End one write hold; the count written is the client's, as in stage 4. The last one deletes the
-- lock and announces it, or, when the writer still holds reads (it downgraded), leaves the lock in
-- read mode and announces that readers may enter.
-- KEYS[1] the hash; KEYS[2] the channel; ARGV[1] the owner; ARGV[2] the message (Redisson's '1': wake
-- every waiter); ARGV[3] the caller's write holds before this unlock.
-- Returns nil when this owner holds no write, 0 when it still does, 1 when its last write hold ended.
local field = ARGV[1] .. ':write'
if redis.call('hget', KEYS[1], 'mode') ~= 'write' or redis.call('hexists', KEYS[1], field) == 0 then
    return nil
end
local left = tonumber(ARGV[3]) - 1
if left > 0 then
    redis.call('hset', KEYS[1], field, left)
    return 0
end
if redis.call('hlen', KEYS[1]) == 2 then
    redis.call('del', KEYS[1])
else
    redis.call('hset', KEYS[1], 'mode', 'read')
    redis.call('hdel', KEYS[1], field)
end
redis.call('publish', KEYS[2], ARGV[2])
return 1
