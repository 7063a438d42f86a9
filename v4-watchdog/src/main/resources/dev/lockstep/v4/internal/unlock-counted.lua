-- Leave once, as stage 3's unlock, but the count written is the one the client keeps: the caller
-- says how many holds it had, and the field is set to one fewer. An earlier call whose reply was
-- lost may have left the count higher; this unlock puts it right, so the last unlock always ends the hold.
-- KEYS[1] the lock hash; KEYS[2] its release channel; ARGV[1] the owner field; ARGV[2] the release message;
-- ARGV[3] the caller's holds before this unlock.
-- Returns nil when the field is not there (not the owner), 0 when still held, 1 when released (and announced).
if redis.call('hexists', KEYS[1], ARGV[1]) == 0 then
    return nil
end
local left = tonumber(ARGV[3]) - 1
if left > 0 then
    redis.call('hset', KEYS[1], ARGV[1], left)
    return 0
end
redis.call('del', KEYS[1])
redis.call('publish', KEYS[2], ARGV[2])
return 1
