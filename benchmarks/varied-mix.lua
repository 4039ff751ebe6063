-- Warm requests that differ, as real clients' do: each request is the next of the 18
-- filter × sort pages of /orders, in turn, with a nonce header of its own (a request id, as a
-- proxy or an app adds), all in one session. No two requests in a row on a thread are alike.
--   wrk -t2 -c64 -d5s -s benchmarks/varied-mix.lua -H 'X-Session-ID: varied' http://127.0.0.1:PORT
local filters = { "all", "pending", "completed", "cancelled", "highValue", "currentMonth" }
local sorts = { "date", "total", "customer" }
local paths = {}
for _, filter in ipairs(filters) do
  for _, sort in ipairs(sorts) do
    paths[#paths + 1] = "/orders?filter=" .. filter .. "&sort=" .. sort
  end
end

local threads = 0
function setup(thread)
  thread:set("thread", threads)
  threads = threads + 1
end

local counter = 0
function init(args)
  counter = (thread or 0) * 5
end

function request()
  counter = counter + 1
  wrk.headers["X-Nonce"] = (thread or 0) .. "-" .. counter
  return wrk.format("GET", paths[counter % #paths + 1])
end
