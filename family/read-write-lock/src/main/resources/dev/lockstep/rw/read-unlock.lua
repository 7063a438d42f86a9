-- End one read hold; the count written is the client's, as in stage 4. While others still hold the
-- lock, the hash lives as long as the longest read hold left (their timeout keys say how long), and
-- as the owner's write, if it holds one, needs: no longer, since a read taken under the write may have
-- set a longer lease. The last hold deletes it and announces the release.
-- KEYS[1] the hash; KEYS[2] the channel; KEYS[3] this owner's timeout-key prefix;
-- KEYS[4] the prefix of every owner's timeout keys ({name}); ARGV[1] the owner; ARGV[2] the message ('0');
-- ARGV[3] the caller's read holds before this unlock; ARGV[4] the lease in ms the owner's write still needs.
-- Returns nil when this owner holds no read, 0 when it still holds one, 1 when its last read hold ended.
if redis.call('hexists', KEYS[1], ARGV[1]) == 0 or redis.call('hget', KEYS[1], 'mode') == false then
    return nil
end
local holds = tonumber(ARGV[3])
if holds > 1 then
    redis.call('hset', KEYS[1], ARGV[1], holds - 1)
else
    redis.call('hdel', KEYS[1], ARGV[1])
end
-- This hold's timeout key, and the one a re-entry whose reply was lost may have left above it.
redis.call('del', KEYS[3] .. ':' .. holds, KEYS[3] .. ':' .. (holds + 1))
if holds > 1 then
    return 0
end
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
    if redis.call('hget', KEYS[1], 'mode') == 'write' then
        redis.call('pexpire', KEYS[1], math.max(longest, tonumber(ARGV[4])))
        return 1
    end
    if longest > 0 then
        redis.call('pexpire', KEYS[1], longest)
        return 1
    end
end
redis.call('del', KEYS[1])
redis.call('publish', KEYS[2], ARGV[2])
return 1
