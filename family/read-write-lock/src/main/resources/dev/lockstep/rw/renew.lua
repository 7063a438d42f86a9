-- Renew this owner's hold: the hash (never shorter than it already lives: another reader may hold a
-- longer lease), and the timeout key of each of its read holds.
-- Readers of other owners whose every read hold ran out (an explicit lease, a client gone) hold
-- nothing any more: their counts go, so the hash says who holds the lock.
-- KEYS[1] the hash; KEYS[2] this owner's timeout-key prefix; KEYS[3] the prefix of every owner's
-- timeout keys ({name}); ARGV[1] lease in ms; ARGV[2] the owner;
-- ARGV[3] the field that must still be there ('owner' for a read hold, 'owner:write' for a write hold).
-- Returns 1 when renewed, 0 when the hold is gone: its field, or for a read hold any of its timeout
-- keys (a reader that paused past its lease no longer counts when others unlock, so it must not go on).
if redis.call('hexists', KEYS[1], ARGV[3]) == 0 then
    return 0
end
local reads = tonumber(redis.call('hget', KEYS[1], ARGV[2])) or 0
if ARGV[3] == ARGV[2] then
    for i = 1, reads do
        if redis.call('pttl', KEYS[2] .. ':' .. i) == -2 then
            return 0
        end
    end
end
for _, other in ipairs(redis.call('hkeys', KEYS[1])) do
    local count = tonumber(redis.call('hget', KEYS[1], other))
    if count and other ~= ARGV[2] and string.sub(other, -6) ~= ':write' then
        local live = false
        for i = 1, count do
            if redis.call('pttl', KEYS[3] .. ':' .. other .. ':rwlock_timeout:' .. i) ~= -2 then
                live = true
                break
            end
        end
        if not live then
            redis.call('hdel', KEYS[1], other)
        end
    end
end
redis.call('pexpire', KEYS[1], math.max(redis.call('pttl', KEYS[1]), tonumber(ARGV[1])))
for i = 1, reads do
    redis.call('pexpire', KEYS[2] .. ':' .. i, ARGV[1])
end
return 1
