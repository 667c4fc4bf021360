-- Goofspiel, a traditional card game of sealed bids, as OpenSpiel plays it
-- (open_spiel/games/goofspiel/goofspiel.cc, imp_info=true, returns
-- win/loss): README.md here gives the sources and every interpretation.
-- One function per step of the rules, so that a variant can replace it.
local rules = {}

local PROMPT = "Bid a card for the prize"

function rules.setup(game)
  local n = game.options.cards
  game.cards = n
  game.box = game:zone("box")
  game.prizes = game:zone("prizes")
  game.prize = game:zone("prize")
  game.discards = game:zone("discards")
  game.hands, game.spent, game.won, game.points = {}, {}, {}, {}
  for seat = 0, game:player_count() - 1 do
    game.hands[seat] = game:zone("hand", seat)
    game.spent[seat] = game:zone("spent", seat)
    game.won[seat] = game:zone("won", seat)
    game.points[seat] = 0
  end
  game.talk = game:listening()
  rules.deal(game)
end

-- Each seat takes a suit, the cards 1 to N (game.yaml stacks the suits in
-- the box, 1 on top; each goes under the last, so the hand keeps that
-- order); the prizes, 1 to N, are shuffled face down.
function rules.deal(game)
  for seat = 0, game:player_count() - 1 do
    game.box:move_top(game.cards, game.hands[seat], "bottom")
  end
  game.prizes:shuffle()
end

-- The next prize is turned face up; returns its value.
function rules.turn_prize(game)
  local prize = game.prizes:top()
  prize:move(game.prize)
  local value = tonumber(prize:face())
  if game.talk then game:say("The prize is worth %d", value) end
  return value
end

-- Everybody bids one card of their hand at once, face down.
function rules.bid(game)
  local hands = game.hands
  local bids = game:choose_together(game:seats(), PROMPT, function(seat) return hands[seat]:items() end)
  for seat = 0, game:player_count() - 1 do
    bids[seat]:move(game.spent[seat])
  end
  return bids
end

-- The highest bid; nil when the highest bid is tied.
function rules.highest(game, bids)
  local best, best_value, tied = 0, tonumber(bids[0]:face()), false
  for seat = 1, game:player_count() - 1 do
    local value = tonumber(bids[seat]:face())
    if value > best_value then
      best, best_value, tied = seat, value, false
    elseif value == best_value then
      tied = true
    end
  end
  if tied then return nil end
  return best
end

-- The bids are turned over (only with reveal_bids), the highest takes the
-- prize and scores its value; a tie discards it.
function rules.award(game, value, bids)
  local prize = game.prize:top()
  if game.options.reveal_bids then
    local shown = {}
    for seat = 0, game:player_count() - 1 do
      bids[seat]:reveal()
      shown[#shown + 1] = string.format("%s %s", game:player_name(seat), bids[seat]:face())
    end
    if game.talk then game:say("The bids: %s", table.concat(shown, ", ")) end
  end
  local taker = rules.highest(game, bids)
  if taker == nil then
    prize:move(game.discards)
    if game.talk then game:say("The highest bids tie: the prize of %d is discarded", value) end
    return nil
  end
  prize:move(game.won[taker])
  game.points[taker] = game.points[taker] + value
  game:add_score(taker, value)
  if game.talk then game:say("%s takes the prize of %d", game:player_name(taker), value) end
  return taker
end

-- Most points wins. As OpenSpiel's win_loss returns: players tied for
-- the most points share the win, unless every player is tied (a draw:
-- nobody wins). The statistic `margin`: seat 0's points minus the best
-- other seat's.
function rules.finish(game)
  local points, n = game.points, game:player_count()
  local best, other = points[0], points[1]
  for seat = 1, n - 1 do best = math.max(best, points[seat]) end
  for seat = 2, n - 1 do other = math.max(other, points[seat]) end
  local winners, losers = {}, {}
  for seat = 0, n - 1 do
    if points[seat] == best then winners[#winners + 1] = seat else losers[#losers + 1] = seat end
  end
  local stats = {margin = points[0] - other}
  if #losers == 0 then
    return game:finish{winners = {}, reason = "draw", stats = stats,
                       summary = string.format("a draw at %d points each", best)}
  end
  local names = {}
  for i, seat in ipairs(winners) do names[i] = game:player_name(seat) end
  return game:finish{winners = winners, losers = losers, reason = "most-points", stats = stats,
                     summary = string.format("%s %s with %d points", table.concat(names, " and "),
                                             #winners == 1 and "wins" or "share the win", best)}
end

function rules.play(game)
  for _ = 1, game.cards do
    game:begin_trick()
    local value = rules.turn_prize(game)
    rules.award(game, value, rules.bid(game))
  end
  return rules.finish(game)
end

-- A seat's share of the win, for bots: its points and an even share of
-- the prizes still to come, against everything won or still to win.
function rules.evaluate(game, seat)
  local n = game:player_count()
  local points, won = game.points, 0
  for s = 0, n - 1 do won = won + points[s] end
  local left = 0
  for i = 1, game.prizes:count() do left = left + tonumber(game.prizes:get(i):face()) end
  if won + left == 0 then return 1 / n end
  return (points[seat] + left / n) / (won + left)
end

-- How the game stands, for a seat: the prize, each player's points, the
-- seat's own cards.
function rules.describe(game, seat)
  local lines = {}
  local prize = game.prize:top()
  lines[#lines + 1] = {label = "the prize", value = prize and prize:face() or "none turned"}
  lines[#lines + 1] = {label = "prizes left", value = tostring(game.prizes:count())}
  for s = 0, game:player_count() - 1 do
    local name = game:player_name(s)
    local value = string.format("%d points", game.points[s])
    if s == seat then
      local faces = {}
      -- dealt 1 to N from the top, and only ever taken from: in order
      for i = 1, game.hands[s]:count() do faces[i] = game.hands[s]:get(i):face() end
      value = value .. "; in hand: " .. table.concat(faces, " ")
    end
    lines[#lines + 1] = {label = s == seat and name .. " (you)" or name, value = value}
  end
  return lines
end

-- Scenarios: the prize pile in a forced order, `faces` from the top
-- (run after setup, which dealt and shuffled).
function rules.stack_prizes(game, faces)
  for i = #faces, 1, -1 do
    game.prizes:find(tostring(faces[i])):move(game.prizes)
  end
end

return rules
