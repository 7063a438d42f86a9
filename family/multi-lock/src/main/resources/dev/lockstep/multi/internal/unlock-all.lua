-- Leave several names at once: stage 4's counted unlock on each. A name whose count reaches 0 is
-- deleted and its release announced on its channel.
-- KEYS the names' hashes, all in one Cluster slot; ARGV[1] the owner field; ARGV[2] the release message;
-- ARGV[3] this lock's holds before the unlock; ARGV[3 + i] the caller's holds of KEYS[i] before it,
-- through any lock of the client; ARGV[3 + #KEYS + i] KEYS[i]'s release channel; ARGV[3 + 2 * #KEYS + i] the
-- lease in ms that the client's other locks holding KEYS[i] still need.
-- Returns 1 when done; nil when a name had no field of this owner: the lock's hold was lost, so all of
-- it is taken off the other names, leaving what other locks of the client hold there.
local owner = ARGV[1]
local mine = {}
local lost = false
for i, key in ipairs(KEYS) do
    mine[i] = redis.call('hexists', key, owner) == 1
    lost = lost or not mine[i]
end
local taken = lost and tonumber(ARGV[3]) or 1
-- This lock's whole share leaves: the names other locks still hold keep the lease those need, no longer.
local leaving = taken == tonumber(ARGV[3])
for i, key in ipairs(KEYS) do
    if mine[i] then
        local left = tonumber(ARGV[3 + i]) - taken
        if left > 0 then
            redis.call('hset', key, owner, left)
            if leaving then
                redis.call('pexpire', key, ARGV[3 + 2 * #KEYS + i])
            end
        else
            redis.call('del', key)
            redis.call('publish', ARGV[3 + #KEYS + i], ARGV[2])
        end
    end
end
if lost then
    return nil
end
return 1
