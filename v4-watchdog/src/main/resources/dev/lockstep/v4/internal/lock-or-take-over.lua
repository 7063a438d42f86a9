-- Take or re-enter, as in stage 3, but the count written is the one the client keeps: the caller
-- says how many holds it has, and the field is set to one more. Setting rather than adding makes a
-- call whose reply was lost harmless: its retry, or the caller's next unlock, writes the count the
-- client believes, so no hold is left that no unlock ends. A caller holding nothing takes over a
-- leftover field of its own (a grant whose reply was lost); a re-entry whose field is gone is refused:
-- its hold was lost, and granting it afresh would hide that.
-- KEYS[1] the lock hash; ARGV[1] lease in ms; ARGV[2] the owner field; ARGV[3] the caller's holds before this call.
-- Returns nil when taken, else the holder's remaining PTTL in ms (0 when nobody holds it).
local holds = tonumber(ARGV[3])
local mine = redis.call('hexists', KEYS[1], ARGV[2]) == 1
if mine or (holds == 0 and redis.call('exists', KEYS[1]) == 0) then
    local lease = tonumber(ARGV[1])
    if mine then
        -- A re-entry never shortens the lease: a lost reply can then only leave it longer than the client believes.
        lease = math.max(redis.call('pttl', KEYS[1]), lease)
    end
    -- PEXPIRE first (on a missing key it changes nothing): a rule without it is refused before anything is written.
    redis.call('pexpire', KEYS[1], lease)
    redis.call('hset', KEYS[1], ARGV[2], holds + 1)
    redis.call('pexpire', KEYS[1], lease)
    return nil
end
return math.max(0, redis.call('pttl', KEYS[1]))
