-- A fenced read of a resource kept in Redis: the reader's token becomes the fence, so no older holder can write after it.
-- KEYS[1] the item's hash (fields quantity and fence); ARGV[1] the reader's token.
-- Returns {1, quantity} when read (the fence is now the token), {0, fence} when a higher fence refused the read,
-- or nil when there is no such item (nothing is written).
local quantity = redis.call('hget', KEYS[1], 'quantity')
if not quantity then
    return nil
end
local fence = tonumber(redis.call('hget', KEYS[1], 'fence') or '0')
if tonumber(ARGV[1]) < fence then
    return {0, fence}
end
redis.call('hset', KEYS[1], 'fence', ARGV[1])
return {1, tonumber(quantity)}
