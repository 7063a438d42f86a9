-- Stage 4's take-or-re-enter (the count written is the client's), and a fencing token for every new
-- hold, in the same atomic step.
-- KEYS[1] the lock hash; KEYS[2] the token counter of the lock's Cluster slot;
-- ARGV[1] lease in ms; ARGV[2] the owner field; ARGV[3] the caller's holds before this call (0: a new hold).
-- Returns the holder's remaining PTTL in ms (0 when nobody holds it) when the caller may not take it;
-- nil for a re-entry, which keeps its hold's token; {token} for a new hold: the counter plus one, never handed out before.
local holds = tonumber(ARGV[3])
local mine = redis.call('hexists', KEYS[1], ARGV[2]) == 1
if mine or (holds == 0 and redis.call('exists', KEYS[1]) == 0) then
    local lease = tonumber(ARGV[1])
    if mine then
        lease = math.max(redis.call('pttl', KEYS[1]), lease)
    end
    -- PEXPIRE first (on a missing key it changes nothing), then the token: a rule without either is
    -- refused before the hold is written.
    redis.call('pexpire', KEYS[1], lease)
    local token = holds == 0 and redis.call('incr', KEYS[2]) or nil
    redis.call('hset', KEYS[1], ARGV[2], holds + 1)
    redis.call('pexpire', KEYS[1], lease)
    if token then
        return {token}
    end
    return nil
end
return math.max(0, redis.call('pttl', KEYS[1]))
