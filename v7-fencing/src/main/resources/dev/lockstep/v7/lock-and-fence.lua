-- Stage 4's take-or-re-enter, and a fencing token for every new hold, in the same atomic step.
-- KEYS[1] the lock hash; KEYS[2] the token counter of the lock's Cluster slot;
-- ARGV[1] lease in ms; ARGV[2] the owner field;
-- ARGV[3] '1' when the caller holds nothing (a new hold), '0' for a re-entry.
-- Returns the holder's remaining PTTL in ms when someone else holds the lock; nil for a re-entry,
-- which keeps its hold's token; {token} for a new hold: the counter plus one, never handed out before.
if redis.call('exists', KEYS[1]) == 0 or redis.call('hexists', KEYS[1], ARGV[2]) == 1 then
    if ARGV[3] == '1' then
        -- The token first: a Redis that refuses INCR (an ACL without it) then leaves no hold behind.
        local token = redis.call('incr', KEYS[2])
        redis.call('hset', KEYS[1], ARGV[2], 1)
        redis.call('pexpire', KEYS[1], ARGV[1])
        return {token}
    end
    redis.call('hincrby', KEYS[1], ARGV[2], 1)
    redis.call('pexpire', KEYS[1], ARGV[1])
    return nil
end
return redis.call('pttl', KEYS[1])
