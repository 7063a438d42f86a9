-- Take a read hold: readers share, and a writer may take reads too (a downgrade). Redisson's layout:
-- the hash holds 'mode' ('read' or 'write'), one field per reading owner (its read count) and one
-- 'owner:write' field per writing owner; each read hold has a timeout key of its own, so the hash
-- can live exactly as long as its longest read hold.
-- KEYS[1] the hash; KEYS[2] this owner's timeout-key prefix ({name}:owner:rwlock_timeout);
-- ARGV[1] lease in ms; ARGV[2] the owner field; ARGV[3] '1' when the caller holds no read yet.
-- Returns nil when taken, else the writer's remaining PTTL in ms.
local mode = redis.call('hget', KEYS[1], 'mode')
if mode == false then
    redis.call('hset', KEYS[1], 'mode', 'read', ARGV[2], 1)
    redis.call('set', KEYS[2] .. ':1', 1, 'px', ARGV[1])
    redis.call('pexpire', KEYS[1], ARGV[1])
    return nil
end
if mode == 'read' or redis.call('hexists', KEYS[1], ARGV[2] .. ':write') == 1 then
    -- A first read by an owner that finds a count of its own is a lost reply's grant: take it over.
    if ARGV[3] == '1' then
        redis.call('hset', KEYS[1], ARGV[2], 0)
    end
    local holds = redis.call('hincrby', KEYS[1], ARGV[2], 1)
    redis.call('set', KEYS[2] .. ':' .. holds, 1, 'px', ARGV[1])
    redis.call('pexpire', KEYS[1], math.max(redis.call('pttl', KEYS[1]), tonumber(ARGV[1])))
    return nil
end
return redis.call('pttl', KEYS[1])
