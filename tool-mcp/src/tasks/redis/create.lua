-- A new working task. ARGV: P, id, ttl (ms), max tasks, max per client, share, owner,
-- runner, created (ISO 8601), poll interval (ms), the runner's lease (ms). Past a bound,
-- settled tasks make way (the client's own first for its share, then anyone's, oldest
-- first); when only running tasks are left, 'full' or 'client_full' and nothing changes.
local id, ttl = ARGV[2], tonumber(ARGV[3])
local max, per_client = tonumber(ARGV[4]), tonumber(ARGV[5])
local share = ARGV[6]
local all, settled, mine = P .. ':all', P .. ':settled', P .. ':share:' .. share
local now = now_ms()
-- Records expire by themselves; their places in the counts go here.
for _, gone in ipairs(redis.call('ZRANGEBYSCORE', all, '-inf', now)) do
  redis.call('ZREM', settled, gone)
end
redis.call('ZREMRANGEBYSCORE', all, '-inf', now)
redis.call('ZREMRANGEBYSCORE', mine, '-inf', now)
while redis.call('ZCARD', mine) >= per_client do
  local oldest = nil
  for _, candidate in ipairs(redis.call('ZRANGE', settled, 0, -1)) do
    if redis.call('ZSCORE', mine, candidate) then
      oldest = candidate
      break
    end
  end
  if not oldest then
    return 'client_full'
  end
  drop(oldest)
end
while redis.call('ZCARD', all) >= max do
  local oldest = redis.call('ZRANGE', settled, 0, 0)[1]
  if not oldest then
    return 'full'
  end
  drop(oldest)
end
-- The creator's lease with its task: a Redis that restarted empty has lost it, and the task
-- must not read as its process's having stopped before the process's next renewal.
redis.call('SET', P .. ':lease:' .. ARGV[8], 1, 'PX', ARGV[11])
local t = P .. ':t:' .. id
redis.call('HSET', t, 'owner', ARGV[7], 'share', share, 'status', 'working',
  'created', ARGV[9], 'updated', ARGV[9], 'ttl', ttl, 'poll', ARGV[10], 'runner', ARGV[8])
redis.call('PEXPIRE', t, ttl)
redis.call('ZADD', all, now + ttl, id)
redis.call('ZADD', mine, now + ttl, id)
if redis.call('PTTL', mine) < ttl then
  redis.call('PEXPIRE', mine, ttl)
end
return 'ok'
