-- `tasks/update`: moves each answer whose key names a waiting question to the answers its
-- process takes, and tells the process. ARGV: P, id, owner, now (ISO 8601), then key,
-- answer (JSON), ... Keys that name no waiting question are ignored. 0 when `owner` can't
-- see the task.
local id = ARGV[2]
local t, q, a = P .. ':t:' .. id, P .. ':q:' .. id, P .. ':a:' .. id
if redis.call('HGET', t, 'owner') ~= ARGV[3] then
  return 0
end
if not unsettled(redis.call('HGET', t, 'status')) then
  return 1
end
local moved = 0
for i = 5, #ARGV, 2 do
  if redis.call('HDEL', q, ARGV[i]) == 1 then
    redis.call('HSET', a, ARGV[i], ARGV[i + 1])
    moved = moved + 1
  end
end
if moved > 0 then
  redis.call('PEXPIRE', a, math.max(redis.call('PTTL', t), 1))
  if redis.call('HLEN', q) == 0 then
    redis.call('HSET', t, 'status', 'working', 'updated', ARGV[4])
  end
  nudge(id)
end
return 1
