-- A soak's mix: 90% reads of lists with ever-changing criteria (searches, sorts, page sizes,
-- offsets, locales, sessions), 10% writes: patch.lua's renames (its setup numbers the threads).
dofile("benchmarks/patch.lua")
local rename = request
local counter = 0
local filters = {"all", "pending", "completed", "cancelled", "highValue", "currentMonth"}
local sorts = {"date", "total", "customer"}
local searches = {"", "john", "er", "jo", "ann", "smith", "z", "ma", "li", "o"}
local locales = {"en-US", "de-DE", "fr-FR", "ja-JP", "es-ES"}
function request()
  counter = counter + 1
  if counter % 10 == 0 then return rename() end
  local path = string.format("/orders?filter=%s&sort=%s&q=%s&limit=%d&offset=%d&locale=%s",
    filters[math.random(#filters)], sorts[math.random(#sorts)], searches[math.random(#searches)],
    math.random(1, 200), math.random(0, 2000), locales[math.random(#locales)])
  return wrk.format("GET", path, {["X-Session-ID"] = "soak-" .. math.random(1, 20000)})
end
