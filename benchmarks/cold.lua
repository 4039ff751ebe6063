-- Every request in its own new session, so no view-model has it cached; run against a server
-- started with --shared-pages 0 so no shared page or result exists either: each request filters,
-- sorts and formats. Session ids are unique per run, thread and request (wrk gives every thread
-- its own Lua state with the same random seed, so the thread number is part of the id).
-- A script that loads this one may define `next_path(counter)` to vary the path per request.
local threads = 0
local run = tostring(os.time())

function setup(thread)
  threads = threads + 1
  thread:set("thread_number", threads)
  thread:set("run", run)
end

local counter = 0
function request()
  counter = counter + 1
  wrk.headers["X-Session-ID"] = "cold-" .. run .. "-" .. thread_number .. "-" .. counter
  return wrk.format(nil, next_path and next_path(counter) or nil)
end
