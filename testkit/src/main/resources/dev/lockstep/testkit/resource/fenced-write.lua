-- A fenced write to a resource kept in Redis: set the quantity only if no higher token read or wrote first.
-- KEYS[1] the item's hash (fields quantity and fence); ARGV[1] the new quantity; ARGV[2] the writer's token.
-- Returns 0 when written (the fence becomes the token), else the higher fence that refused the write.
local fence = tonumber(redis.call('hget', KEYS[1], 'fence') or '0')
if tonumber(ARGV[2]) < fence then
    return fence
end
redis.call('hset', KEYS[1], 'quantity', ARGV[1], 'fence', ARGV[2])
return 0
