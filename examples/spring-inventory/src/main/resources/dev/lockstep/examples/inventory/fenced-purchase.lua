-- Writes an account order's stock and balance back, both or neither: neither when a later holder of either lock read
-- or wrote first (fenced-purchase-read.lua).
-- KEYS[1]: the product's hash; KEYS[2]: the account's hash. ARGV[1]: the stock left; ARGV[2]: the units sold;
-- ARGV[3]: the balance left; ARGV[4]: the cost; ARGV[5]: the product lock's token; ARGV[6]: the account lock's token.
-- Returns the order's number for the account, or 0 when a fence already holds a later token.
if tonumber(ARGV[5]) < tonumber(redis.call('HGET', KEYS[1], 'fence') or 0)
    or tonumber(ARGV[6]) < tonumber(redis.call('HGET', KEYS[2], 'fence') or 0) then
  return 0
end
redis.call('HSET', KEYS[1], 'stock', ARGV[1], 'fence', ARGV[5])
redis.call('HINCRBY', KEYS[1], 'sold', ARGV[2])
redis.call('HINCRBY', KEYS[1], 'orders', 1)
redis.call('HSET', KEYS[2], 'balance', ARGV[3], 'fence', ARGV[6])
redis.call('HINCRBY', KEYS[2], 'spent', ARGV[4])
return redis.call('HINCRBY', KEYS[2], 'orders', 1)
