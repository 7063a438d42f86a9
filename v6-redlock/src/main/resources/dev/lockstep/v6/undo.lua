-- Take back a grant of a failed round: count - 1, and delete the lock when no hold is left. Quietly:
-- unlike an unlock it publishes nothing, because nobody released a lock anyone could take.
-- KEYS[1] the lock hash; ARGV[1] the owner field.
-- Returns nil when the field is not there, 0 when still held, 1 when deleted.
if redis.call('hexists', KEYS[1], ARGV[1]) == 0 then
    return nil
end
if redis.call('hincrby', KEYS[1], ARGV[1], -1) > 0 then
    return 0
end
redis.call('del', KEYS[1])
return 1
