-- Every request in its own new session, so no view-model has it cached; run against a server
-- started with --shared-pages 0 so no shared page or result exists either: each request filters,
-- sorts and formats.
local counter = 0
function request()
  counter = counter + 1
  wrk.headers["X-Session-ID"] = "cold-" .. tostring(math.random(1, 1000000000)) .. "-" .. counter
  return wrk.format(nil)
end
