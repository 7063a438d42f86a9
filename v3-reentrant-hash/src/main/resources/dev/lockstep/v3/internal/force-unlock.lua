-- Administrative release: delete the lock whoever holds it, and announce the release as an unlock does.
-- KEYS[1] the lock hash; KEYS[2] its release channel; ARGV[1] the release message.
-- Returns 1 when there was a lock to delete (and the release was published), 0 when there was none.
if redis.call('del', KEYS[1]) == 1 then
    redis.call('publish', KEYS[2], ARGV[1])
    return 1
end
return 0
