-- Take the lock in turn. Waiters queue in a list, and each has a deadline in a sorted set: the
-- server's time when it last asked, plus the waiter timeout. A live waiter asks again before its
-- deadline; a dead one stops, and the first request after its deadline drops it from the queue.
-- KEYS[1] the lock hash; KEYS[2] the queue (a list of owners); KEYS[3] the waiters' deadlines (ms).
-- ARGV[1] lease in ms; ARGV[2] the owner field; ARGV[3] '1' when the caller holds nothing, '0' for
-- a re-entry (as stage 4); ARGV[4] the waiter timeout in ms.
-- Returns nil when taken (lease reset), else how many ms to sleep before asking again.
local time = redis.call('time')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local waiterTimeout = tonumber(ARGV[4])

-- Drop dead waiters from the head of the queue. A head without a deadline is dead too.
while true do
    local head = redis.call('lindex', KEYS[2], 0)
    if not head then
        break
    end
    local deadline = redis.call('zscore', KEYS[3], head)
    if deadline and tonumber(deadline) > now then
        break
    end
    redis.call('lpop', KEYS[2])
    redis.call('zrem', KEYS[3], head)
end

-- Re-entry, or a leftover field of the caller's own (stage 4's take-over): the queue has no say.
if redis.call('hexists', KEYS[1], ARGV[2]) == 1 then
    if ARGV[3] == '1' then
        redis.call('hset', KEYS[1], ARGV[2], 1)
    else
        redis.call('hincrby', KEYS[1], ARGV[2], 1)
    end
    redis.call('pexpire', KEYS[1], ARGV[1])
    return nil
end

-- A free lock goes to the head of the queue, or to anyone when nobody queues.
local head = redis.call('lindex', KEYS[2], 0)
if redis.call('exists', KEYS[1]) == 0 and (not head or head == ARGV[2]) then
    if head then
        redis.call('lpop', KEYS[2])
        redis.call('zrem', KEYS[3], ARGV[2])
    end
    redis.call('hset', KEYS[1], ARGV[2], 1)
    redis.call('pexpire', KEYS[1], ARGV[1])
    return nil
end

-- Wait: join the tail, or keep one's place with a fresh deadline.
if redis.call('zadd', KEYS[3], now + waiterTimeout, ARGV[2]) == 1 then
    redis.call('rpush', KEYS[2], ARGV[2])
end
-- The queue lives as long as its last deadline (Redisson's waiters may set later ones).
local last = redis.call('zrange', KEYS[3], -1, -1, 'withscores')
local keep = math.max(waiterTimeout, tonumber(last[2]) - now)
redis.call('pexpire', KEYS[2], keep)
redis.call('pexpire', KEYS[3], keep)

-- Ask again before one's own deadline; the head sooner if the lease ends first (its release
-- is announced to the head alone); the others when the head's deadline passes, in case it died.
head = redis.call('lindex', KEYS[2], 0)
local sleep = math.floor(waiterTimeout / 3)
if head == ARGV[2] then
    local lease = redis.call('pttl', KEYS[1])
    if lease >= 0 then
        sleep = math.min(sleep, lease)
    end
else
    sleep = math.min(sleep, tonumber(redis.call('zscore', KEYS[3], head)) - now)
end
return math.max(sleep, 0)
