-- wrk script of bench/run.ts: rotates paths and API keys, and prints one JSON line of results.
--
--   wrk -t2 -c32 -d5s -s bench/wrk.lua http://127.0.0.1:PORT -- METHOD PATHS_FILE KEYS_FILE BASE THREADS
--
-- Keys rotate so that no key's rate limit (at most 1,000,000 an hour) runs out during a run; the
-- same requests go to the bare server, which ignores the key, so both sides cost wrk the same.
-- GET requests are formatted once in init (cheap to send). Each PUT carries a price no other
-- request of the run carries (BASE + a global request number / 100), so every PUT changes the
-- price and writes a price.updated event, whatever the interleaving of connections.

local next_tid = 0
function setup(thread)
  thread:set("tid", next_tid)
  next_tid = next_tid + 1
end

local function read_lines(file)
  local out = {}
  for line in io.lines(file) do
    if #line > 0 then out[#out + 1] = line end
  end
  return out
end

local method, paths, keys, base, threads
local prepared, count, cursor = {}, 0, 0
local sent = 0

function init(args)
  method, paths, keys = args[1], read_lines(args[2]), read_lines(args[3])
  base, threads = tonumber(args[4]) or 0, tonumber(args[5]) or 1
  tid = tid or 0
  if method == "GET" then
    count = math.max(#paths, #keys)
    for j = 0, count - 1 do
      prepared[j + 1] = wrk.format("GET", paths[(j % #paths) + 1], { ["X-API-Key"] = keys[(j % #keys) + 1] })
    end
    -- Threads start at different points of the rotation.
    cursor = math.floor(tid * count / threads)
  end
end

function request()
  if method == "GET" then
    cursor = cursor % count + 1
    return prepared[cursor]
  end
  local j = sent * threads + tid
  sent = sent + 1
  return wrk.format("PUT", paths[(j % #paths) + 1],
    { ["X-API-Key"] = keys[(j % #keys) + 1], ["Content-Type"] = "application/json" },
    string.format('{"price":%.2f}', base + j / 100))
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'BENCH_JSON {"requests":%d,"durationUs":%d,"bytes":%d,"connectErrors":%d,"readErrors":%d,"writeErrors":%d,"httpErrors":%d,"timeouts":%d,"p50Us":%.0f,"p90Us":%.0f,"p99Us":%.0f,"maxUs":%.0f}\n',
    summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max))
end
