-- Take the lock in turn. Waiters queue in a list, and each has a deadline in a sorted set: the
-- server's time when it last asked, plus the waiter timeout. A live waiter asks again before its
-- deadline; a dead one stops, and a request that finds it at the head after its deadline drops it.
-- KEYS[1] the lock hash; KEYS[2] the queue (a list of owners); KEYS[3] the waiters' deadlines (ms).
-- ARGV[1] lease in ms; ARGV[2] the owner field; ARGV[3] the caller's holds before this call (as
-- stage 4: the field is set to one more); ARGV[4] the waiter timeout in ms.
-- Returns nil when taken, else how many ms to sleep before asking again, or -2 for a waiter that
-- has just joined behind others (-1 is taken: the client's word for a failed try).
local owner = ARGV[2]
local holds = tonumber(ARGV[3])
local waiterTimeout = tonumber(ARGV[4])

local function now()
    local time = redis.call('time')
    return tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
end

-- The head of the queue after dropping the dead ones (their deadline passed, or they have none).
local function liveHead(head, at)
    while head do
        local deadline = redis.call('zscore', KEYS[3], head)
        if deadline and tonumber(deadline) > at then
            return head, tonumber(deadline)
        end
        redis.call('lpop', KEYS[2])
        redis.call('zrem', KEYS[3], head)
        head = redis.call('lindex', KEYS[2], 0)
    end
    return nil
end

-- Writes the caller's hold, its lease set before and after: PEXPIRE first (on a missing key it
-- changes nothing) refuses a rule without it before anything is written.
local function take(lease)
    redis.call('pexpire', KEYS[1], lease)
    redis.call('hset', KEYS[1], owner, holds + 1)
    redis.call('pexpire', KEYS[1], lease)
end

local held = redis.call('exists', KEYS[1]) == 1
-- Re-entry, or a leftover field of the caller's own (stage 4's take-over): the queue has no say.
-- A re-entry never shortens the lease.
if held and redis.call('hexists', KEYS[1], owner) == 1 then
    take(math.max(redis.call('pttl', KEYS[1]), tonumber(ARGV[1])))
    return nil
end
-- A re-entry whose field is gone lost its hold: it is refused, not queued.
if holds > 0 then
    return math.max(0, redis.call('pttl', KEYS[1]))
end

-- A free lock goes to the head of the queue, or to anyone when nobody queues.
local head = redis.call('lindex', KEYS[2], 0)
local at, headDeadline = nil, nil
if not held and head and head ~= owner then
    at = now()
    head, headDeadline = liveHead(head, at)
end
if not held and (not head or head == owner) then
    take(tonumber(ARGV[1]))
    if head then
        redis.call('lpop', KEYS[2])
        redis.call('zrem', KEYS[3], owner)
    end
    return nil
end

-- Wait: join the tail, or keep one's place with a fresh deadline. The queue outlives every deadline
-- in it (Redisson's waiters may set later ones than ours). What the join asks of Redis comes before
-- its writes, and each key gets its lease as soon as it is written: Redis does not undo a script's
-- writes when a later command is refused, and a queue left without a TTL would hold the lock forever.
at = at or now()
local keep = nil
if redis.call('pttl', KEYS[2]) < waiterTimeout then
    local last = redis.call('zrange', KEYS[3], -1, -1, 'withscores')
    keep = math.max(2 * waiterTimeout, (tonumber(last[2]) or at) - at)
    -- On keys not there yet PEXPIRE changes nothing, but a rule without it is refused here.
    redis.call('pexpire', KEYS[3], keep)
end
local joinedBehind = redis.call('zadd', KEYS[3], at + waiterTimeout, owner) == 1
if keep then
    redis.call('pexpire', KEYS[3], keep)
end
if joinedBehind then
    joinedBehind = redis.call('rpush', KEYS[2], owner) > 1
end
if keep then
    redis.call('pexpire', KEYS[2], keep)
end
if joinedBehind then
    -- The head is woken first.
    return -2
end

-- How long to sleep: at most a third of the waiter timeout, so a live waiter asks again in time.
-- The head is woken by the release, so it sleeps no longer than the holder's lease. The others ask
-- again when the head's deadline passes, in case it died and must be dropped.
local third = math.floor(waiterTimeout / 3)
if head and head ~= owner then
    if not headDeadline then
        head, headDeadline = liveHead(head, at)
    end
    if head and head ~= owner then
        return math.min(third, headDeadline - at)
    end
end
local lease = redis.call('pttl', KEYS[1])
return lease >= 0 and math.min(third, lease) or third
