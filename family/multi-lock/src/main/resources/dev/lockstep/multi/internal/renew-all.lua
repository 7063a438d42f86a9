-- Renew several names as one hold: push every lease out again, but only while this owner still
-- holds every one of them.
-- KEYS the names' hashes, all in one Cluster slot; ARGV[1] lease in ms; ARGV[2] the owner field.
-- Returns 1 when renewed, 0 when any of the owner's fields is gone: the hold is lost, and nothing is renewed.
for _, key in ipairs(KEYS) do
    if redis.call('hexists', key, ARGV[2]) == 0 then
        return 0
    end
end
for _, key in ipairs(KEYS) do
    redis.call('pexpire', key, ARGV[1])
end
return 1
