-- A call ended: its task settles with the status and outcome (JSON) unless it has settled
-- already (cancelled, or failed by another process) or is gone. ARGV: P, id, status,
-- outcome, now (ISO 8601).
return settle(ARGV[2], ARGV[3], ARGV[4], ARGV[5])
