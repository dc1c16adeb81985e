-- A question of a running task's call: kept under its key, the task input_required.
-- ARGV: P, id, key, the question (JSON), now (ISO 8601). 0 when the task has settled or
-- is gone.
local id = ARGV[2]
local t, q = P .. ':t:' .. id, P .. ':q:' .. id
if not unsettled(redis.call('HGET', t, 'status')) then
  return 0
end
redis.call('HSET', q, ARGV[3], ARGV[4])
redis.call('HSET', t, 'status', 'input_required', 'updated', ARGV[5])
redis.call('PEXPIRE', q, math.max(redis.call('PTTL', t), 1))
return 1
