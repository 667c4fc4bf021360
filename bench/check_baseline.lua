-- Rule check for bench/pass_the_pandas_baseline.lua (not part of the timed run).
--
--   lua5.4 bench/check_baseline.lua [GAMES]
--
-- 1. Scripted games: math.random is replaced by a queue of expected calls
--    ({m, value}: the call must be math.random(m) and returns value). Dice faces
--    are random(6): 1 panda, 2 bamboo, 3 water, 4..6 blank; a panda's recipient
--    is random(players-1): offset from the roller. Every call is checked, so the
--    number of dice each player rolls (their count) is verified too.
-- 2. Statistical cross-check against an independent, object-style implementation
--    (a list of die objects per player): mean turns and win rates must agree.

local BASELINE = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/pass_the_pandas_baseline.lua"
local failures = 0

local function run_baseline(args, script)
  local real_random, real_seed, real_print = math.random, math.randomseed, print
  local pos, err = 1, nil
  math.randomseed = function() end
  math.random = function(m)
    local step = script[pos]
    if not step then error("unexpected extra call random(" .. tostring(m) .. ")", 0) end
    if step[1] ~= m then
      err = err or string.format("call %d: expected random(%d), got random(%s)", pos, step[1], tostring(m))
    end
    pos = pos + 1
    return step[2]
  end
  local out
  print = function(s) out = s end
  local chunk = assert(loadfile(BASELINE))
  local saved_arg = arg
  arg = args
  local ok, perr = pcall(chunk)
  arg = saved_arg
  math.random, math.randomseed, print = real_random, real_seed, real_print
  if not ok then err = err or perr end
  if not err and pos <= #script then err = string.format("only %d of %d scripted calls used", pos - 1, #script) end
  return out, err
end

local function roll(faces, players, targets)
  -- faces: list of face numbers; targets: recipients' offsets for pandas, in order
  local s, t = {}, 1
  for _, f in ipairs(faces) do
    s[#s + 1] = { 6, f }
    if f == 1 then s[#s + 1] = { players - 1, targets[t] }; t = t + 1 end
  end
  return s
end

local function concat(...)
  local r = {}
  for _, l in ipairs({ ... }) do for _, v in ipairs(l) do r[#r + 1] = v end end
  return r
end

local function rep(v, n) local r = {} for i = 1, n do r[i] = v end return r end

local function case(name, players, script, want_turns, want_winner)
  local out, err = run_baseline({ "1", "1", tostring(players) }, script)
  local turns = out and tonumber(out:match('"mean_turns":([%d%.]+)'))
  local rates = out and out:match('"win_rate_by_seat":%[([^%]]*)%]')
  local winner
  if rates then
    local i = 0
    for r in rates:gmatch("[^,]+") do
      if tonumber(r) == 1 then winner = i end
      i = i + 1
    end
  end
  if err or turns ~= want_turns or winner ~= want_winner then
    failures = failures + 1
    print(string.format("FAIL %s: %s (turns %s, winner %s; want %d, %d)", name, err or "",
      tostring(turns), tostring(winner), want_turns, want_winner))
  else
    print("ok   " .. name)
  end
end

-- Starting dice per player count: seat 0 rolls exactly that many dice.
for players, dice in pairs({ [2] = 6, [3] = 6, [4] = 5, [5] = 4 }) do
  case(players .. " players start with " .. dice .. " dice; all water wins on turn 1",
    players, roll(rep(3, dice), players), 1, 0)
end

case("all pandas given away wins on turn 1", 2,
  roll(rep(1, 6), 2, rep(1, 6)), 1, 0)

-- Seat 0 rolls 1 panda to offset 2 (seat 2) and 5 blanks; seat 1 then rolls 6
-- dice (all blank), seat 2 rolls 7 dice (all water) and wins on turn 3.
case("panda recipient is roller + offset", 3, concat(
  roll({ 1, 4, 4, 4, 4, 4 }, 3, { 2 }),
  roll(rep(5, 6), 3),
  roll(rep(3, 7), 3)), 3, 2)

-- Seat 0 rolls 6 bamboo (kept). Seat 1 rolls 6 water: 0 < 6 bamboo, so seat 0
-- gives seat 1 its 6 dice and seat 0, the previous player, wins on turn 2.
case("challenge can empty the previous player", 2, concat(
  roll(rep(2, 6), 2),
  roll(rep(3, 6), 2)), 2, 0)

-- 3 players, 6 dice each.
-- T1 seat 0: 3 bamboo + 3 blank, P=0 -> seat0 6.
-- T2 seat 1: 1 bamboo + 5 water -> 1 die, 1 < 3 -> seat0 gives 2: seat0 4, seat1 3.
-- T3 seat 2: 6 pandas, offsets 1,1,1,1,1,2 -> seat0 +5 = 9, seat1 +1 = 4, seat2 0;
--    0 < 1 bamboo -> seat1 gives 1: seat1 3, seat2 1 (no winner).
-- T4 seat 0: rolls 9 dice, all water, P=0 -> seat 0 wins on turn 4.
case("partial challenge, challenge rescues an empty roller", 3, concat(
  roll({ 2, 2, 2, 4, 4, 4 }, 3),
  roll({ 2, 3, 3, 3, 3, 3 }, 3),
  roll(rep(1, 6), 3, { 1, 1, 1, 1, 1, 2 }),
  roll(rep(3, 9), 3)), 4, 0)

-- P is the previous player's bamboo on their LAST turn only, and equal bamboo is no challenge.
-- T1 seat0: 2 bamboo + 4 blank. T2 seat1: 2 bamboo + 4 water -> 2 dice, no challenge.
-- T3 seat0: 6 dice: 6 water, 0 < 2 -> seat1 gives 2: seat0 2, seat1 0 -> seat1 wins on turn 3.
case("equal bamboo is no challenge; previous player can be emptied", 2, concat(
  roll({ 2, 2, 4, 4, 4, 4 }, 2),
  roll({ 2, 2, 3, 3, 3, 3 }, 2),
  roll(rep(3, 6), 2)), 3, 1)

-- Independent reference: each player holds a list of die objects.
local FACES = { "panda", "bamboo", "water", "blank", "blank", "blank" }
local DICE = { [2] = 6, [3] = 6, [4] = 5, [5] = 4 }

local function reference(players, games)
  local wins, sum, sumsq = {}, 0, 0
  for s = 1, players do wins[s] = 0 end
  for _ = 1, games do
    local hands = {}
    for s = 1, players do
      hands[s] = {}
      for d = 1, DICE[players] do hands[s][d] = { face = "blank" } end
    end
    local cur, last_bamboo, turns, winner = 1, 0, 0, nil
    while not winner do
      turns = turns + 1
      local prev = cur == 1 and players or cur - 1
      local keep, bamboo = {}, 0
      for _, die in ipairs(hands[cur]) do
        die.face = FACES[math.random(6)]
        if die.face == "panda" then
          local others = {}
          for s = 1, players do if s ~= cur then others[#others + 1] = s end end
          table.insert(hands[others[math.random(#others)]], die)
        elseif die.face ~= "water" then
          if die.face == "bamboo" then bamboo = bamboo + 1 end
          keep[#keep + 1] = die
        end
      end
      hands[cur] = keep
      for _ = 1, last_bamboo - bamboo do
        table.insert(hands[cur], table.remove(hands[prev]))
      end
      last_bamboo = bamboo
      for s = 1, players do if #hands[s] == 0 then winner = s end end
      cur = cur % players + 1
    end
    wins[winner] = wins[winner] + 1
    sum, sumsq = sum + turns, sumsq + turns * turns
  end
  local mean = sum / games
  return mean, math.sqrt(sumsq / games - mean * mean), wins
end

local games = tonumber(arg[1]) or 100000
for players = 2, 5 do
  local mean, sd, wins = reference(players, games)
  local h = io.popen(string.format("lua5.4 %q %d 12345 %d", BASELINE, games, players))
  local out = h:read("a"); h:close()
  local bmean = tonumber(out:match('"mean_turns":([%d%.]+)'))
  local se = sd * math.sqrt(2 / games)
  local ok = math.abs(bmean - mean) < 5 * se
  local i, rates = 1, {}
  for r in out:match('"win_rate_by_seat":%[([^%]]*)%]'):gmatch("[^,]+") do
    local p = wins[i] / games
    local rse = math.sqrt(2 * p * (1 - p) / games)
    if math.abs(tonumber(r) - p) >= 5 * rse then ok = false end
    rates[#rates + 1] = string.format("%.3f/%.3f", tonumber(r), p)
    i = i + 1
  end
  if not ok then failures = failures + 1 end
  print(string.format("%s %d players: mean_turns baseline %.3f reference %.3f (se %.3f); win rate baseline/reference %s",
    ok and "ok  " or "FAIL", players, bmean, mean, se, table.concat(rates, " ")))
end

if failures > 0 then print(failures .. " FAILED"); os.exit(1) end
print("all checks passed")
