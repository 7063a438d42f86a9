-- Leave once: count - 1, and delete the lock when the last hold is gone.
-- KEYS[1] the lock hash; ARGV[1] the owner field.
-- Returns nil when the field is not there (not the owner), 0 when still held, 1 when released.
if redis.call('hexists', KEYS[1], ARGV[1]) == 0 then
    return nil
end
if redis.call('hincrby', KEYS[1], ARGV[1], -1) > 0 then
    return 0
end
redis.call('del', KEYS[1])
return 1
