-- Questions the call stopped waiting on (their deadline passed) go; the task works again
-- once none is left. ARGV: P, id, now (ISO 8601), then the keys.
local id = ARGV[2]
local t, q = P .. ':t:' .. id, P .. ':q:' .. id
for i = 4, #ARGV do
  redis.call('HDEL', q, ARGV[i])
end
if redis.call('HGET', t, 'status') == 'input_required' and redis.call('HLEN', q) == 0 then
  redis.call('HSET', t, 'status', 'working', 'updated', ARGV[3])
end
return 1
