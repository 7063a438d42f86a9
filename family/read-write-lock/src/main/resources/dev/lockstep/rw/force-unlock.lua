-- Administrative release of one side, as Redisson's: the read side deletes the lock only in read
-- mode, the write side only in write mode, so clearing stuck readers never evicts a live writer.
-- The read holds' timeout keys go too, and every waiter is told.
-- KEYS[1] the hash; KEYS[2] the channel; KEYS[3] the prefix of every owner's timeout keys ({name});
-- ARGV[1] the mode this side clears ('read' or 'write'); ARGV[2] the message (Redisson's '1': wake every waiter).
-- Returns 1 when the lock was in that mode and is now deleted, else 0.
if redis.call('hget', KEYS[1], 'mode') ~= ARGV[1] then
    return 0
end
for _, owner in ipairs(redis.call('hkeys', KEYS[1])) do
    local count = tonumber(redis.call('hget', KEYS[1], owner))
    if count ~= nil and owner ~= 'mode' and string.sub(owner, -6) ~= ':write' then
        for i = 1, count do
            redis.call('del', KEYS[3] .. ':' .. owner .. ':rwlock_timeout:' .. i)
        end
    end
end
redis.call('del', KEYS[1])
redis.call('publish', KEYS[2], ARGV[2])
return 1
