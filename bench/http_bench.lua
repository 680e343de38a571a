-- wrk script of bench/http_bench.py: one kind of request, over random rows or demo users.
--   wrk -s bench/http_bench.lua URL -- OP ROWS [USER=TOKEN,USER=TOKEN,...]
--   get         GET /bench/ROW (Accept: application/json): one row's CellSet
--   cell        GET /bench/ROW/f:q (Accept: application/octet-stream): one cell's raw value
--               (bench/served_bench.py)
--   static      GET /value (Accept: application/octet-stream): a 100-byte static file, nginx's
--               side in bench/served_bench.py
--   put         PUT /bench/ROW/f:q, an application/octet-stream body: one 100-byte cell
--   scan10      GET /bench/PREFIX* (REST's row-prefix globbing, a scan): 10 rows
--   timeline    GET /api/v1/timeline?limit=20 as a random user (bearer token): home timeline
--   activity10  GET /api/v1/users/USER/activity?limit=10 as that user: the latest 10 actions
-- The summary line "WRKJSON {...}" is what http_bench.py reads.

local mode = "get"
local rows = 1
local value = string.rep("v", 100)
local users = {}
local counter = 0

function setup(thread)
  counter = counter + 1
  thread:set("seed", counter)
end

function init(args)
  mode = args[1] or "get"
  rows = tonumber(args[2] or "1")
  for user, token in string.gmatch(args[3] or "", "([^=,]+)=([^,]+)") do
    users[#users + 1] = {name = user, token = token}
  end
  math.randomseed(os.time() * 100 + (seed or 0))
end

function request()
  if mode == "static" then
    return wrk.format("GET", "/value", {["Accept"] = "application/octet-stream"})
  elseif mode == "put" then
    local row = string.format("row%08d", math.random(0, rows - 1))
    return wrk.format("PUT", "/bench/" .. row .. "/f:q",
                      {["Content-Type"] = "application/octet-stream"}, value)
  elseif mode == "scan10" then
    local prefix = string.format("row%07d", math.random(0, rows / 10 - 1))
    return wrk.format("GET", "/bench/" .. prefix .. "*", {["Accept"] = "application/json"})
  elseif mode == "timeline" or mode == "activity10" then
    local u = users[math.random(1, #users)]
    local headers = {["Authorization"] = "Bearer " .. u.token}
    if mode == "timeline" then
      return wrk.format("GET", "/api/v1/timeline?limit=20", headers)
    end
    return wrk.format("GET", "/api/v1/users/" .. u.name .. "/activity?limit=10", headers)
  end
  local row = string.format("row%08d", math.random(0, rows - 1))
  if mode == "cell" then
    return wrk.format("GET", "/bench/" .. row .. "/f:q", {["Accept"] = "application/octet-stream"})
  end
  return wrk.format("GET", "/bench/" .. row, {["Accept"] = "application/json"})
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'WRKJSON {"requests": %d, "duration_us": %d, "non_2xx": %d, "socket_errors": %d, ' ..
    '"p50_us": %d, "p90_us": %d, "p99_us": %d, "p999_us": %d}\n',
    summary.requests, summary.duration, e.status, e.connect + e.read + e.write + e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99),
    latency:percentile(99.9)))
end
