-- Reads what an account order needs and moves both fences to the order's tokens, unless a later holder of either
-- lock got there first: the two-key form of fenced-read.lua. Both hashes live on one Redis.
-- KEYS[1]: the product's hash; KEYS[2]: the account's hash. ARGV[1]: the product lock's token; ARGV[2]: the account's.
-- Returns {1, stock, price, balance} when read; {0} when a fence already holds a later token; {-1} for an unknown
-- product; {-2} for an unknown account. Nothing is written unless it returns 1.
local product = redis.call('HMGET', KEYS[1], 'stock', 'price', 'fence')
if not product[1] then
  return {-1}
end
local account = redis.call('HMGET', KEYS[2], 'balance', 'fence')
if not account[1] then
  return {-2}
end
if tonumber(ARGV[1]) < tonumber(product[3] or 0) or tonumber(ARGV[2]) < tonumber(account[2] or 0) then
  return {0}
end
redis.call('HSET', KEYS[1], 'fence', ARGV[1])
redis.call('HSET', KEYS[2], 'fence', ARGV[2])
return {1, tonumber(product[1]), tonumber(product[2]), tonumber(account[1])}
