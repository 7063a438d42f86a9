-- How long the lock still lives on this node: its PTTL, as a script so that it travels the fan-out's lanes.
-- KEYS[1] the lock hash.
-- Returns the PTTL in ms, -2 when the node has no lock.
return redis.call('pttl', KEYS[1])
