-- What the process running task `id` has to hear: the task's status ('' when it is gone)
-- and the answers given since it last looked, which are taken. ARGV: P, id.
local id = ARGV[2]
local a = P .. ':a:' .. id
local answers = redis.call('HGETALL', a)
redis.call('DEL', a)
return { redis.call('HGET', P .. ':t:' .. id, 'status') or '', answers }
