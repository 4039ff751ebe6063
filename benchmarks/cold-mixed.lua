-- Cold lists over mixed criteria: cold.lua's new session per request (run against a server
-- started with --shared-pages 0, so nothing is cached anywhere), each request the next
-- combination of filter, search, sort, direction, locale and time zone, so no two
-- neighbouring requests share work. Run from the repository's root.
dofile("benchmarks/cold.lua")

local filters = { "all", "pending", "completed", "cancelled", "highValue", "currentMonth" }
local searches = { "", "john", "er", "an", "m%C3%BCller", "o", "zz" }
local sorts = { "date", "total", "customer" }
local orders = { "asc", "desc" }
local displays = { "locale=en-US&tz=UTC", "locale=de-DE&tz=Europe/Berlin", "locale=ja-JP&tz=Asia/Tokyo", "locale=fr-FR&tz=America/New_York" }

function next_path(counter)
  local n = counter + thread_number * 7919
  return string.format("/orders?filter=%s&q=%s&sort=%s&order=%s&%s",
    filters[n % #filters + 1], searches[math.floor(n / 2) % #searches + 1], sorts[math.floor(n / 3) % #sorts + 1],
    orders[math.floor(n / 5) % #orders + 1], displays[math.floor(n / 7) % #displays + 1])
end
