-- Take a read hold: readers share, and a writer may take reads too (a downgrade). Redisson's layout:
-- the hash holds 'mode' ('read' or 'write'), one field per reading owner (its read count) and one
-- 'owner:write' field per writing owner; each read hold has a timeout key of its own, so the hash
-- can live exactly as long as its longest read hold. As in stage 4, the count written is the
-- client's, a re-entry whose read is gone is refused, and a re-entry never shortens the hold.
-- KEYS[1] the hash; KEYS[2] this owner's timeout-key prefix ({name}:owner:rwlock_timeout);
-- ARGV[1] lease in ms; ARGV[2] the owner field; ARGV[3] the caller's read holds before this call.
-- Returns nil when taken, else the writer's remaining PTTL in ms (0 when nobody holds the lock).
local holds = tonumber(ARGV[3])
local lease = tonumber(ARGV[1])
local mode = redis.call('hget', KEYS[1], 'mode')
local mine = redis.call('hexists', KEYS[1], ARGV[2]) == 1
if holds > 0 and not mine then
    return math.max(0, redis.call('pttl', KEYS[1]))
end
if mode == false or mode == 'read' or redis.call('hexists', KEYS[1], ARGV[2] .. ':write') == 1 then
    -- The hash never lives shorter than a hold in it. PEXPIRE first (on a missing key it changes
    -- nothing): a rule without it is refused before anything is written.
    local keep = math.max(redis.call('pttl', KEYS[1]), lease)
    redis.call('pexpire', KEYS[1], keep)
    -- A re-entry never shortens the hold, and its lease covers the holds before it: an unlock ends
    -- the newest timeout key, and the count left must last as long as the client believes.
    for i = 1, holds do
        local timeout = KEYS[2] .. ':' .. i
        redis.call('pexpire', timeout, math.max(redis.call('pttl', timeout), lease))
    end
    redis.call('set', KEYS[2] .. ':' .. (holds + 1), 1, 'px', lease)
    redis.call('hset', KEYS[1], 'mode', mode or 'read', ARGV[2], holds + 1)
    redis.call('pexpire', KEYS[1], keep)
    return nil
end
return redis.call('pttl', KEYS[1])
