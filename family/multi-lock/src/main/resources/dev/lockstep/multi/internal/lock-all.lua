-- Take several names at once, or none: stage 4's take or re-enter, checked on every name before
-- any is written. Each name's count is the one the client keeps for the caller (its holds of that
-- name, through any lock of this client), set to one more.
-- KEYS the names' hashes, all in one Cluster slot; ARGV[1] lease in ms; ARGV[2] the owner field;
-- ARGV[2 + i] the caller's holds of KEYS[i] before this call.
-- Returns nil when all are taken, else {i, pttl}: the first name held by someone else, and its lease left
-- in ms; -1 when nobody holds it but the client still counts holds of its own there (another lock of the
-- client whose hold was lost, and will learn so at its next renewal).
local owner = ARGV[2]
local mine = {}
for i, key in ipairs(KEYS) do
    mine[i] = redis.call('hexists', key, owner) == 1
    if not mine[i] and (tonumber(ARGV[2 + i]) > 0 or redis.call('exists', key) == 1) then
        local left = redis.call('pttl', key)
        if left == -2 then
            return {i, -1}
        end
        return {i, math.max(0, left)}
    end
end
for i, key in ipairs(KEYS) do
    local lease = tonumber(ARGV[1])
    if mine[i] then
        -- A re-entry never shortens the lease.
        lease = math.max(redis.call('pttl', key), lease)
    end
    -- PEXPIRE first: a rule without it is refused before anything is written.
    redis.call('pexpire', key, lease)
    redis.call('hset', key, owner, tonumber(ARGV[2 + i]) + 1)
    redis.call('pexpire', key, lease)
end
return nil
