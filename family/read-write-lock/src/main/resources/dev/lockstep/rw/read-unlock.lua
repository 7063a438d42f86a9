-- End one read hold. While others still hold the lock, the hash lives as long as the longest read
-- hold left (their timeout keys say how long); the last hold deletes it and announces the release.
-- KEYS[1] the hash; KEYS[2] the channel; KEYS[3] this owner's timeout-key prefix;
-- KEYS[4] the prefix of every owner's timeout keys ({name}); ARGV[1] the owner; ARGV[2] the message ('0').
-- Returns nil when this owner holds no read, 0 when it still holds one, 1 when its last read hold ended.
local holds = tonumber(redis.call('hget', KEYS[1], ARGV[1]))
if holds == nil or redis.call('hget', KEYS[1], 'mode') == false then
    return nil
end
holds = redis.call('hincrby', KEYS[1], ARGV[1], -1)
redis.call('del', KEYS[3] .. ':' .. (holds + 1))
if holds > 0 then
    return 0
end
redis.call('hdel', KEYS[1], ARGV[1])
if redis.call('hlen', KEYS[1]) > 1 then
    local longest = -3
    for _, owner in ipairs(redis.call('hkeys', KEYS[1])) do
        local count = tonumber(redis.call('hget', KEYS[1], owner))
        if count ~= nil then
            for i = count, 1, -1 do
                longest = math.max(longest, redis.call('pttl', KEYS[4] .. ':' .. owner .. ':rwlock_timeout:' .. i))
            end
        end
    end
    if longest > 0 then
        redis.call('pexpire', KEYS[1], longest)
        return 1
    end
    if redis.call('hget', KEYS[1], 'mode') == 'write' then
        return 1
    end
end
redis.call('del', KEYS[1])
redis.call('publish', KEYS[2], ARGV[2])
return 1
