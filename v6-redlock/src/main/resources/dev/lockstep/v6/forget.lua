-- Remove this owner from one node outright, whatever its count there: a node that kept a stray
-- hold (a grant that arrived after its round was given up) must not outlive the last unlock.
-- KEYS[1] the lock hash; KEYS[2] its release channel; ARGV[1] the owner field; ARGV[2] the release message.
-- Returns 1 when the owner was there, 0 when not.
if redis.call('hdel', KEYS[1], ARGV[1]) == 0 then
    return 0
end
if redis.call('hlen', KEYS[1]) == 0 then
    redis.call('del', KEYS[1])
    redis.call('publish', KEYS[2], ARGV[2])
end
return 1
