-- Take a write hold: only when nobody holds the lock, or as a re-entry of this owner's write.
-- KEYS[1] the hash; ARGV[1] lease in ms; ARGV[2] the owner; ARGV[3] '1' when the caller holds no write yet.
-- Returns nil when taken, else the remaining PTTL in ms of whoever holds it.
local field = ARGV[2] .. ':write'
local mode = redis.call('hget', KEYS[1], 'mode')
if mode == false then
    redis.call('hset', KEYS[1], 'mode', 'write', field, 1)
    redis.call('pexpire', KEYS[1], ARGV[1])
    return nil
end
if mode == 'write' and redis.call('hexists', KEYS[1], field) == 1 then
    -- As in stage 4: a first write that finds this owner's field takes it over instead of adding to it.
    if ARGV[3] == '1' then
        redis.call('hset', KEYS[1], field, 1)
    else
        redis.call('hincrby', KEYS[1], field, 1)
    end
    redis.call('pexpire', KEYS[1], ARGV[1])
    return nil
end
return redis.call('pttl', KEYS[1])
