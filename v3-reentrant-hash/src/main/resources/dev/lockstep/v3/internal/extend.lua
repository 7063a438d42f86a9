-- Extend: set the lease anew, but only while this owner still holds the lock.
-- KEYS[1] the lock hash; ARGV[1] lease in ms; ARGV[2] the owner field.
-- Returns 1 when set, 0 when the owner's field is gone (expired, or deleted by someone).
if redis.call('hexists', KEYS[1], ARGV[2]) == 1 then
    redis.call('pexpire', KEYS[1], ARGV[1])
    return 1
end
return 0
