-- Every request a real change: PATCH the customer name of a random order among the first
-- 5,000 (names alternate, so no request is a no-op).
local counter = 0
local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("thread_number", threads)
end
function request()
  counter = counter + 1
  local id = string.format("o-%06d", math.random(1, 5000))
  local body = '{"customerName":"Bench Writer ' .. thread_number .. "-" .. counter .. '"}'
  return wrk.format("PATCH", "/orders/" .. id, {["Content-Type"] = "application/json"}, body)
end
