-- Reads an order's stock and moves the product's fence to the order's token, unless a later holder got there first.
-- The fence moves on the read, not only on the write, so that no order with an older token can write between
-- this order's read and its write.
-- KEYS[1]: the product's hash. ARGV[1]: the order's fencing token.
-- Returns {1, stock} when read, {0} when the fence already holds a later token (nothing is written),
-- or nil for an unknown product (nothing is written).
local stock = redis.call('HGET', KEYS[1], 'stock')
if not stock then
  return nil
end
if tonumber(ARGV[1]) < tonumber(redis.call('HGET', KEYS[1], 'fence') or 0) then
  return {0}
end
redis.call('HSET', KEYS[1], 'fence', ARGV[1])
return {1, tonumber(stock)}
