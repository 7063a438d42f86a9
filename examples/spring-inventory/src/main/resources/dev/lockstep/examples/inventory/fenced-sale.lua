-- Writes an order's stock back unless a later holder of the product's lock read or wrote first (fenced-read.lua).
-- KEYS[1]: the product's hash. ARGV[1]: the stock left; ARGV[2]: the units sold; ARGV[3]: the order's fencing token.
-- Returns the order's number, or 0 when the hash's fence already holds a later token: nothing is written.
if tonumber(ARGV[3]) < tonumber(redis.call('HGET', KEYS[1], 'fence') or 0) then
  return 0
end
redis.call('HSET', KEYS[1], 'stock', ARGV[1], 'fence', ARGV[3])
redis.call('HINCRBY', KEYS[1], 'sold', ARGV[2])
return redis.call('HINCRBY', KEYS[1], 'orders', 1)
