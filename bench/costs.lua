-- What each thing a rule does costs, in plain Lua 5.4 (the same VM that runs
-- rules): the numbers behind "Fast rules" in docs/writing-a-game.md.
--
--   lua5.4 bench/costs.lua [N]      (N iterations per measure, default 2000000)
--
-- Each measure is CPU time (os.clock) of N iterations minus an empty loop's,
-- the median of 5 runs, in nanoseconds per iteration.
local N = tonumber(arg and arg[1]) or 2000000

local function median(xs)
  table.sort(xs)
  return xs[(#xs + 1) // 2]
end

local function time(body)
  local runs = {}
  for r = 1, 5 do
    local t0 = os.clock()
    body(N)
    runs[r] = os.clock() - t0
  end
  return median(runs)
end

local sink
local function lua_f(i) return i end
local fmt, rawlen, setmt = string.format, rawlen, setmetatable
local t5 = {1, 2, 3, 4, 5}
local mt = {__index = function(_, k) return k end}

local cases = {
  {"empty loop iteration (subtracted from the others)", function(n) for i = 1, n do end end},
  {"reading a local (sink = v)", function(n) local v = 1 for i = 1, n do sink = v end end},
  {"reading a field (sink = t.state: a hash lookup)", function(n)
    local t = {talk = false, dice = 1, rolled = 2, state = 3}
    for i = 1, n do sink = t.state end end},
  {"a Lua function call f(i)", function(n) for i = 1, n do sink = lua_f(i) end end},
  {"a Lua->C call (rawlen(t), like a binding call)", function(n) for i = 1, n do sink = rawlen(t5) end end},
  {"a table {a=, b=, c=, d=, e=} (five fields)", function(n)
    for i = 1, n do sink = {a = i, b = i, c = i, d = i, e = i} end end},
  {"an empty table {}", function(n) for i = 1, n do sink = {} end end},
  {"filling a reused table's five fields", function(n)
    local r = {}
    for i = 1, n do r.a, r.b, r.c, r.d, r.e = i, i, i, i, i end end},
  {"five multiple return values", function(n)
    local function five(i) return i, i, i, i, i end
    for i = 1, n do local a, b, c, d, e = five(i) end end},
  {"string.format('%s to the %s side', s, s)", function(n)
    for i = 1, n do sink = fmt("%s to the %s side", "Shark", "north") end end},
  {"string.format('(%d,%d)', i, i)", function(n) for i = 1, n do sink = fmt("(%d,%d)", i, i) end end},
  {"concatenation 'the ' .. s (new string)", function(n)
    local names = {"red", "blue"}
    for i = 1, n do sink = "the " .. names[i % 2 + 1] .. i end end},
  {"setmetatable({x=i}, mt) (a lazy label)", function(n) for i = 1, n do sink = setmt({x = i}, mt) end end},
  {"a new list of 8, appended to (out[#out + 1] = v)", function(n)
    for i = 1, n do
      local out = {}
      for k = 1, 8 do out[#out + 1] = k end
      sink = out
    end end},
  {"refilling a list of 8 kept for the game", function(n)
    local out = {}
    for i = 1, n do
      local m = 0
      for k = 1, 8 do m = m + 1; out[m] = k end
      for k = #out, m + 1, -1 do out[k] = nil end
      sink = out
    end end},
  {"for _, v in ipairs(t) over 5 items", function(n)
    for i = 1, n do for _, v in ipairs(t5) do sink = v end end end},
  {"for k = 1, #t over 5 items", function(n)
    for i = 1, n do for k = 1, #t5 do sink = t5[k] end end end},
}

local empty = time(cases[1][2])
print(string.format("%-52s %10s", "lua5.4, " .. N .. " iterations, median of 5", "ns each"))
print(string.format("%-52s %10.1f", cases[1][1], empty / N * 1e9))
for k = 2, #cases do
  local c = cases[k]
  print(string.format("%-52s %10.1f", c[1], (time(c[2]) - empty) / N * 1e9))
end
