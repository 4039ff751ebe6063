-- Cold lists, each request a search no request before it made (two letters and a vowel from
-- a running counter), so a page's counts are counted from its search's matches every time.
-- cold.lua's new session per request; run against a server started with --shared-pages 0.
dofile("benchmarks/cold.lua")

local letters = { "b", "c", "d", "g", "l", "m", "n", "r", "s", "t" }
local vowels = { "a", "e", "i", "o", "u" }

function next_path(counter)
  local n = counter + thread_number * 7919
  return string.format("/orders?filter=pending&q=%s%s%s", letters[n % #letters + 1], vowels[math.floor(n / #letters) % #vowels + 1],
    letters[math.floor(n / (#letters * #vowels)) % #letters + 1])
end
