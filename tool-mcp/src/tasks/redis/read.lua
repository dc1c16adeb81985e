-- `tasks/get`: the record and the questions it waits on, or nil when `owner` can't see it.
-- ARGV: P, id, owner, the outcome of a task whose process stopped, now (ISO 8601). A task
-- still running whose process's lease ran out is settled failed first, saying so.
local id = ARGV[2]
local t = P .. ':t:' .. id
if redis.call('HGET', t, 'owner') ~= ARGV[3] then
  return false
end
local runner = redis.call('HGET', t, 'runner')
if unsettled(redis.call('HGET', t, 'status'))
    and redis.call('EXISTS', P .. ':lease:' .. runner) == 0 then
  settle(id, 'failed', ARGV[4], ARGV[5])
end
return { redis.call('HGETALL', t), redis.call('HGETALL', P .. ':q:' .. id) }
