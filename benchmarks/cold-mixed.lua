-- Cold lists over mixed criteria: every request a new session (run against a server started
-- with --shared-pages 0, so nothing is cached anywhere) and the next combination of filter,
-- search, sort, direction, locale and time zone, so no two neighbouring requests share work.
local filters = { "all", "pending", "completed", "cancelled", "highValue", "currentMonth" }
local searches = { "", "john", "er", "an", "müller", "o", "zz" }
local sorts = { "date", "total", "customer" }
local orders = { "asc", "desc" }
local displays = { "locale=en-US&tz=UTC", "locale=de-DE&tz=Europe/Berlin", "locale=ja-JP&tz=Asia/Tokyo", "locale=fr-FR&tz=America/New_York" }
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
  local n = counter + (thread_number or 0) * 7919
  local path = string.format("/orders?filter=%s&q=%s&sort=%s&order=%s&%s",
    filters[n % #filters + 1], searches[math.floor(n / 2) % #searches + 1], sorts[math.floor(n / 3) % #sorts + 1],
    orders[math.floor(n / 5) % #orders + 1], displays[math.floor(n / 7) % #displays + 1])
  wrk.headers["X-Session-ID"] = "mixed-" .. run .. "-" .. (thread_number or 0) .. "-" .. counter
  return wrk.format("GET", (path:gsub("ü", "%%C3%%BC")))
end
