-- Pass the Pandas (Gruhl & Weir): plain Lua 5.4 baseline for the rulebook benchmark.
--
--   lua5.4 bench/pass_the_pandas_baseline.lua GAMES SEED PLAYERS
--
-- This is "what a person would write in plain Lua": dice are just per-player
-- integer counts, one math.random call per die, no objects, no engine.
-- Prints one JSON line:
--   {"games":N,"seconds":S,"games_per_second":G,"mean_turns":T,"win_rate_by_seat":[...]}
--
-- Rules implemented (one turn of the current player):
--   1. roll all your dice; faces: panda, bamboo, water, blank, blank, blank
--   2. every water die is removed from the game
--   3. each panda die goes to another player, chosen uniformly at random per die
--   4. bamboo challenge: P = bamboo rolled by the previous player on their last
--      turn (0 on the first turn of the game); if you rolled fewer bamboo than P,
--      the previous player gives you (P - yours) dice
--   5. blanks are kept
-- The game ends at the end of a turn on which a player has no dice; that player wins.

local games   = tonumber(arg[1]) or 200000
local seed    = tonumber(arg[2]) or 1
local players = tonumber(arg[3]) or 4

local DICE = { [2] = 6, [3] = 6, [4] = 5, [5] = 4 }
local start_dice = DICE[players]
if not start_dice then
  io.stderr:write("players must be 2..5\n")
  os.exit(2)
end

local random = math.random
math.randomseed(seed)

local count = {}   -- count[seat] = dice held, seats 0..players-1
local wins = {}
for s = 0, players - 1 do wins[s] = 0 end
local others = players - 1
local total_turns = 0

local t0 = os.clock()

for _ = 1, games do
  for s = 0, players - 1 do count[s] = start_dice end
  local cur, prev = 0, players - 1
  local prev_bamboo = 0          -- no previous turn on the first turn
  local turns = 0
  local winner

  repeat
    turns = turns + 1
    local n = count[cur]
    local bamboo, lost = 0, 0
    for _ = 1, n do
      local face = random(6)       -- 1 panda, 2 bamboo, 3 water, 4..6 blank
      if face == 1 then            -- panda: give to a random other player
        local to = cur + random(others)
        if to >= players then to = to - players end
        count[to] = count[to] + 1
        lost = lost + 1
      elseif face == 2 then
        bamboo = bamboo + 1
      elseif face == 3 then        -- water: removed from the game
        lost = lost + 1
      end
    end
    n = n - lost

    if bamboo < prev_bamboo then   -- bamboo challenge
      local give = prev_bamboo - bamboo
      count[prev] = count[prev] - give
      n = n + give
    end
    count[cur] = n

    if n == 0 then
      winner = cur
    elseif count[prev] == 0 then   -- previous player gave away their last dice
      winner = prev
    end

    prev_bamboo = bamboo
    prev = cur
    cur = cur + 1
    if cur == players then cur = 0 end
  until winner

  wins[winner] = wins[winner] + 1
  total_turns = total_turns + turns
end

local seconds = os.clock() - t0

local rates = {}
for s = 0, players - 1 do rates[#rates + 1] = string.format("%.6f", wins[s] / games) end

print(string.format(
  '{"games":%d,"seconds":%.6f,"games_per_second":%.1f,"mean_turns":%.6f,"win_rate_by_seat":[%s]}',
  games, seconds, seconds > 0 and games / seconds or 0, total_turns / games,
  table.concat(rates, ",")))
