-- Renew (or, asked by the owner, extend) this owner's hold: set its lease anew, as the hash's TTL
-- and, for a read hold, the timeout key of each of its reads. The hash lives exactly as long as the
-- longest hold in it: this one's new lease, every other read hold's timeout key, and on the read
-- side this owner's write (the hash's own TTL), so a shorter lease shortens the hash, yet never cuts
-- another hold. A write renewal pushes the owner's reads' timeout keys out to its lease too, never in.
-- Readers of other owners whose every read hold ran out (an explicit lease, a client gone) hold
-- nothing any more: their counts go, so the hash says who holds the lock.
-- KEYS[1] the hash; KEYS[2] this owner's timeout-key prefix; KEYS[3] the prefix of every owner's
-- timeout keys ({name}); ARGV[1] lease in ms; ARGV[2] the owner;
-- ARGV[3] the field that must still be there ('owner' for a read hold, 'owner:write' for a write hold).
-- Returns 1 when renewed, 0 when the hold is gone: its field, or for a read hold any of its timeout
-- keys (a reader that paused past its lease no longer counts when others unlock, so it must not go on).
if redis.call('hexists', KEYS[1], ARGV[3]) == 0 then
    return 0
end
local lease = tonumber(ARGV[1])
local reading = ARGV[3] == ARGV[2]
local reads = tonumber(redis.call('hget', KEYS[1], ARGV[2])) or 0
if reading then
    for i = 1, reads do
        if redis.call('pttl', KEYS[2] .. ':' .. i) == -2 then
            return 0
        end
    end
end
local keep = lease
if reading and redis.call('hexists', KEYS[1], ARGV[2] .. ':write') == 1 then
    keep = math.max(keep, redis.call('pttl', KEYS[1]))
end
for _, other in ipairs(redis.call('hkeys', KEYS[1])) do
    local count = tonumber(redis.call('hget', KEYS[1], other))
    if count and other ~= ARGV[2] and string.sub(other, -6) ~= ':write' then
        local longest = -2
        for i = 1, count do
            longest = math.max(longest, redis.call('pttl', KEYS[3] .. ':' .. other .. ':rwlock_timeout:' .. i))
        end
        if longest == -2 then
            redis.call('hdel', KEYS[1], other)
        end
        keep = math.max(keep, longest)
    end
end
for i = 1, reads do
    local timeout = KEYS[2] .. ':' .. i
    local readLease = lease
    if not reading then
        readLease = math.max(redis.call('pttl', timeout), lease)
    end
    redis.call('pexpire', timeout, readLease)
    keep = math.max(keep, readLease)
end
redis.call('pexpire', KEYS[1], keep)
return 1
