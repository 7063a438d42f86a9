-- Stage 4's lock script on one of several masters (the count written is the client's), telling a
-- refused caller who holds the node. A node that lost the key (a restart) takes a re-entry afresh:
-- the quorum, not one node, says whether the hold stands.
-- KEYS[1] the lock hash; ARGV[1] lease in ms; ARGV[2] the owner field; ARGV[3] the caller's holds before this call.
-- Returns nil when taken, else {remaining PTTL in ms, the holder's field}:
-- one holder refusing on a quorum of nodes is a real holder; less is a split vote or a round in flight.
local free = redis.call('exists', KEYS[1]) == 0
if free or redis.call('hexists', KEYS[1], ARGV[2]) == 1 then
    local lease = tonumber(ARGV[1])
    if not free then
        -- A re-entry never shortens the lease: the holder's deadline is the longer one.
        lease = math.max(redis.call('pttl', KEYS[1]), lease)
    end
    -- PEXPIRE first (on a missing key it changes nothing): a rule without it is refused before anything is written.
    redis.call('pexpire', KEYS[1], lease)
    redis.call('hset', KEYS[1], ARGV[2], tonumber(ARGV[3]) + 1)
    redis.call('pexpire', KEYS[1], lease)
    return nil
end
return {redis.call('pttl', KEYS[1]), redis.call('hkeys', KEYS[1])[1]}
