-- Shared by every script (prepended to each). ARGV[1] is the key prefix, P below; a task's
-- record is P:t:ID (a hash), the questions it waits on P:q:ID, the answers not yet taken
-- by the process running it P:a:ID. P:all and P:share:SHARE count the tasks kept (sorted
-- sets scored by expiry), P:settled orders the settled ones (by when they settled), and
-- P:lease:RUNNER says that a process still runs its tasks.
local P = ARGV[1]

local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end

local function unsettled(status)
  return status == 'working' or status == 'input_required'
end

-- Takes task `id` out: its record, questions and answers, and its places in the counts.
local function drop(id)
  local share = redis.call('HGET', P .. ':t:' .. id, 'share')
  redis.call('DEL', P .. ':t:' .. id, P .. ':q:' .. id, P .. ':a:' .. id)
  redis.call('ZREM', P .. ':all', id)
  redis.call('ZREM', P .. ':settled', id)
  if share then
    redis.call('ZREM', P .. ':share:' .. share, id)
  end
end

-- Settles task `id` with `status` and `outcome` (JSON) unless it has settled already (or is
-- gone): its questions and answers go. 1 if it settled now, 0 if not.
local function settle(id, status, outcome, updated)
  local t = P .. ':t:' .. id
  if not unsettled(redis.call('HGET', t, 'status')) then
    return 0
  end
  redis.call('HSET', t, 'status', status, 'outcome', outcome, 'updated', updated)
  redis.call('DEL', P .. ':q:' .. id, P .. ':a:' .. id)
  redis.call('ZADD', P .. ':settled', now_ms(), id)
  return 1
end

-- Tells the process running task `id` that something changed for it (a nudge: the state
-- is in the record, read when the process hears this or on its next tick).
local function nudge(id)
  local runner = redis.call('HGET', P .. ':t:' .. id, 'runner')
  if runner then
    redis.call('PUBLISH', P .. ':runner:' .. runner, id)
  end
end
