-- Stage 3's lock script on one of several masters, telling a refused caller who holds the node.
-- KEYS[1] the lock hash; ARGV[1] lease in ms; ARGV[2] the owner field.
-- Returns nil when taken (count + 1, lease reset), else {remaining PTTL in ms, the holder's field}:
-- one holder refusing on more nodes than the caller can do without is a real holder; less is a split vote.
if redis.call('exists', KEYS[1]) == 0 or redis.call('hexists', KEYS[1], ARGV[2]) == 1 then
    redis.call('hincrby', KEYS[1], ARGV[2], 1)
    redis.call('pexpire', KEYS[1], ARGV[1])
    return nil
end
return {redis.call('pttl', KEYS[1]), redis.call('hkeys', KEYS[1])[1]}
