-- wrk script of bench/http_bench.py: REST single-row GETs or single-cell PUTs of random rows
-- "row%08d" of table "bench".
--   wrk -s bench/http_bench.lua URL -- get|put ROWS
-- GET /bench/ROW (Accept: application/json) returns the row's CellSet; PUT /bench/ROW/f:q with
-- an application/octet-stream body writes one 100-byte cell. The summary line "WRKJSON {...}"
-- is what http_bench.py reads.

local mode = "get"
local rows = 1
local value = string.rep("v", 100)
local counter = 0

function setup(thread)
  counter = counter + 1
  thread:set("seed", counter)
end

function init(args)
  mode = args[1] or "get"
  rows = tonumber(args[2] or "1")
  math.randomseed(os.time() * 100 + (seed or 0))
end

function request()
  local row = string.format("row%08d", math.random(0, rows - 1))
  if mode == "put" then
    return wrk.format("PUT", "/bench/" .. row .. "/f:q",
                      {["Content-Type"] = "application/octet-stream"}, value)
  end
  return wrk.format("GET", "/bench/" .. row, {["Accept"] = "application/json"})
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'WRKJSON {"requests": %d, "duration_us": %d, "non_2xx": %d, "socket_errors": %d, ' ..
    '"p50_us": %d, "p90_us": %d, "p99_us": %d}\n',
    summary.requests, summary.duration, e.status, e.connect + e.read + e.write + e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99)))
end
