-- Take or re-enter, as in stage 3, but a caller that holds nothing by its own count takes over a
-- leftover field of its own instead of adding to it. Such a field is a grant whose reply was lost,
-- or a hold this client already declared lost: counting on from it would leave a hold no unlock ends.
-- KEYS[1] the lock hash; ARGV[1] lease in ms; ARGV[2] the owner field;
-- ARGV[3] '1' when the caller holds nothing (the count starts at 1), '0' for a re-entry (count + 1).
-- Returns nil when taken (lease reset), else the holder's remaining PTTL in ms.
if redis.call('exists', KEYS[1]) == 0 or redis.call('hexists', KEYS[1], ARGV[2]) == 1 then
    if ARGV[3] == '1' then
        redis.call('hset', KEYS[1], ARGV[2], 1)
    else
        redis.call('hincrby', KEYS[1], ARGV[2], 1)
    end
    redis.call('pexpire', KEYS[1], ARGV[1])
    return nil
end
return redis.call('pttl', KEYS[1])
