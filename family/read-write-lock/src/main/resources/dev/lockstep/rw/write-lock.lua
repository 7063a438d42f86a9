-- Take a write hold: only when nobody holds the lock, or as a re-entry of this owner's write. As in
-- stage 4, the count written is the client's, and a re-entry whose write is gone is refused.
-- KEYS[1] the hash; ARGV[1] lease in ms; ARGV[2] the owner; ARGV[3] the caller's write holds before this call.
-- Returns nil when taken, else the remaining PTTL in ms of whoever holds it (0 when nobody does).
local field = ARGV[2] .. ':write'
local holds = tonumber(ARGV[3])
local mode = redis.call('hget', KEYS[1], 'mode')
local lease = tonumber(ARGV[1])
if mode == 'write' and redis.call('hexists', KEYS[1], field) == 1 then
    -- A re-entry (or a leftover grant of this owner's) never shortens the lease.
    lease = math.max(redis.call('pttl', KEYS[1]), lease)
elseif mode or holds > 0 then
    return math.max(0, redis.call('pttl', KEYS[1]))
end
-- PEXPIRE first (on a missing key it changes nothing): a rule without it is refused before anything is written.
redis.call('pexpire', KEYS[1], lease)
redis.call('hset', KEYS[1], 'mode', 'write', field, holds + 1)
redis.call('pexpire', KEYS[1], lease)
return nil
