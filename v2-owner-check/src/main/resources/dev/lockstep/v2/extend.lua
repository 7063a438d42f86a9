-- Extend: set the lease anew, but only while the key still holds this owner's token.
-- KEYS[1] the lock key; ARGV[1] the owner's token; ARGV[2] lease in ms.
-- Returns 1 when set, 0 when the key is gone or holds another owner's token.
if redis.call('get', KEYS[1]) == ARGV[1] then
    redis.call('pexpire', KEYS[1], ARGV[2])
    return 1
end
return 0
