-- Take back what a failed round may have granted on this node: the count goes back to the caller's
-- holds before the round, and the lock goes when that was none. Quietly: unlike an unlock it publishes
-- nothing, because nobody released a lock anyone could take. Setting the count makes the undo safe
-- on a node that never ran the round's request, and on one that ran it twice.
-- KEYS[1] the lock hash; ARGV[1] the owner field; ARGV[2] the caller's holds before the round.
-- Returns nil when the field is not there, 0 when still held, 1 when deleted.
if redis.call('hexists', KEYS[1], ARGV[1]) == 0 then
    return nil
end
if tonumber(ARGV[2]) > 0 then
    redis.call('hset', KEYS[1], ARGV[1], ARGV[2])
    return 0
end
redis.call('del', KEYS[1])
return 1
