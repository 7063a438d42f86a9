-- Take or re-enter: the lock is a hash of owner (clientId:threadId) to hold count.
-- KEYS[1] the lock hash; ARGV[1] lease in ms; ARGV[2] the owner field.
-- Returns nil when taken (count + 1, lease reset), else the holder's remaining PTTL in ms.
if redis.call('exists', KEYS[1]) == 0 or redis.call('hexists', KEYS[1], ARGV[2]) == 1 then
    -- PEXPIRE first (on a missing key it changes nothing): Redis does not undo a script's writes when a
    -- later command is refused, so a rule without PEXPIRE must be refused before the count is written.
    redis.call('pexpire', KEYS[1], ARGV[1])
    redis.call('hincrby', KEYS[1], ARGV[2], 1)
    redis.call('pexpire', KEYS[1], ARGV[1])
    return nil
end
return redis.call('pttl', KEYS[1])
