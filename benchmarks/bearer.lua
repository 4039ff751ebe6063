-- Requests with `Authorization: Bearer <token>`, the tokens read from a file (one per line) and
-- taken in turn, each thread from its own place in the file: `wrk ... -s benchmarks/bearer.lua
-- <url> -- TOKENS_FILE [cold]`. One token is a warm, cached verification; more tokens than the
-- server's cache holds, taken in turn, make every request verify its signature. With `cold`,
-- every request also has its own new session (see cold.lua), else all share one.
local threads = 0
local run = tostring(os.time())

function setup(thread)
  threads = threads + 1
  thread:set("thread_number", threads)
  thread:set("run", run)
end

local tokens = {}
local cold = false
local counter = 0

function init(args)
  for line in io.lines(args[1]) do
    if #line > 0 then tokens[#tokens + 1] = line end
  end
  cold = args[2] == "cold"
  counter = (thread_number or 1) * 7919
  if not cold then wrk.headers["X-Session-ID"] = "bearer-" .. run end
end

function request()
  counter = counter + 1
  wrk.headers["Authorization"] = "Bearer " .. tokens[counter % #tokens + 1]
  if cold then wrk.headers["X-Session-ID"] = "cold-" .. run .. "-" .. thread_number .. "-" .. counter end
  return wrk.format()
end
