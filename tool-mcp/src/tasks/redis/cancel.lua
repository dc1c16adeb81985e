-- `tasks/cancel`: settles a running task cancelled and tells its process. ARGV: P, id,
-- owner, the outcome (JSON), now (ISO 8601). 0 when `owner` can't see the task.
local id = ARGV[2]
if redis.call('HGET', P .. ':t:' .. id, 'owner') ~= ARGV[3] then
  return 0
end
if settle(id, 'cancelled', ARGV[4], ARGV[5]) == 1 then
  nudge(id)
end
return 1
