-- Requests with `Authorization: Bearer <token>`, the tokens read from a file (one per line) and
-- taken in turn, each thread from its own place in the file: `wrk ... -s benchmarks/bearer.lua
-- <url> -- TOKENS_FILE [cold]`. One token is a warm, cached verification; more tokens than the
-- server's cache holds, taken in turn, make every request verify its signature. With `cold`,
-- every request also has its own new session (cold.lua's), else all share one.
dofile("benchmarks/cold.lua")
local newSessionRequest = request

local tokens = {}
local cold = false
local taken = 0

function init(args)
  for line in io.lines(args[1]) do
    if #line > 0 then tokens[#tokens + 1] = line end
  end
  cold = args[2] == "cold"
  taken = (thread_number or 1) * 7919
  if not cold then wrk.headers["X-Session-ID"] = "bearer-" .. os.time() end
end

function request()
  taken = taken + 1
  wrk.headers["Authorization"] = "Bearer " .. tokens[taken % #tokens + 1]
  if cold then return newSessionRequest() end
  return wrk.format()
end
