-- Renew several names as one hold: set every lease anew, but only while this owner still holds
-- every one of them. A name the owner also holds through another lock of its client keeps the
-- longer of its lease and this one: that lock believes in its own lease, which this one must not cut.
-- KEYS the names' hashes, all in one Cluster slot; ARGV[1] lease in ms; ARGV[2] the owner field;
-- ARGV[2 + i] '1' when the owner holds KEYS[i] through another lock too, else '0'.
-- Returns 1 when renewed, 0 when any of the owner's fields is gone: the hold is lost, and nothing is renewed.
for _, key in ipairs(KEYS) do
    if redis.call('hexists', key, ARGV[2]) == 0 then
        return 0
    end
end
local lease = tonumber(ARGV[1])
for i, key in ipairs(KEYS) do
    if ARGV[2 + i] == '1' then
        redis.call('pexpire', key, math.max(redis.call('pttl', key), lease))
    else
        redis.call('pexpire', key, lease)
    end
end
return 1
