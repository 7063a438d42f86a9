-- Compare-and-delete: remove the lock only if it still holds this acquisition's token.
-- KEYS[1] the lock key; ARGV[1] the token written when the lock was taken.
-- Returns 1 when deleted, 0 when the key is gone or belongs to someone else.
if redis.call('get', KEYS[1]) == ARGV[1] then
    return redis.call('del', KEYS[1])
end
return 0
