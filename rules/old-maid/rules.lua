-- Old Maid, a traditional card game. Rules as on pagat.com ("Old Maid") and
-- Wikipedia ("Old maid (card game)"); played in rounds to a penalty target,
-- with a peek: see README.md. One function per step of the rules, so that a
-- variant can replace it.
local rules = {}

-- "an Ace", "a Queen"
function rules.a(title)
  if title:match("^[AEIOUaeiou]") then return "an " .. title end
  return "a " .. title
end

-- "Sixes", "Aces"
local function plural(title)
  if title:sub(-1) == "x" then return title .. "es" end
  return title .. "s"
end

-- The labels of "which card?" decisions, built once per hand size: a card
-- drawn unseen is known only by where it lies in the fan.
local function positions(game, n)
  local list = game.position_labels[n]
  if not list then
    list = {}
    for i = 1, n do list[i] = {label = string.format("card %d of %d", i, n), index = i} end
    game.position_labels[n] = list
  end
  return list
end

function rules.setup(game)
  game.deck = game:zone("deck")
  game.table = game:zone("table")
  game.hands = {}
  game.peeks_left = {}
  game.position_labels = {}
  for seat = 0, game:player_count() - 1 do
    game.hands[seat] = game:zone("hand", seat)
    game.peeks_left[seat] = game.options.peeks
  end
  -- Public: the penalty points (times left holding the Old Maid) by seat
  -- name, and who deals this round.
  game.state.penalties = {}
  for seat = 0, game:player_count() - 1 do game.state.penalties[game:player_name(seat)] = 0 end
  -- The last seat deals first, so that seat 0 (on the dealer's left) plays first.
  game.state.dealer = game:player_count() - 1
end

-- "The dealer deals out all the cards to the players, one at a time":
-- starting on the dealer's left; some get one card more than others.
function rules.deal(game, first)
  for seat = 0, game:player_count() - 1 do game.hands[seat]:move_all(game.deck) end
  game.table:move_all(game.deck)
  game.deck:shuffle()
  local seat = first
  while not game.deck:empty() do
    game.deck:top():move(game.hands[seat])
    seat = (seat + 1) % game:player_count()
  end
end

-- "Discard any pairs face up (never three of a kind)": two cards of one
-- rank go to the table; a third stays in the hand.
function rules.lay_pairs(game, seat)
  local hand = game.hands[seat]
  local by_type, order = {}, {}
  for _, card in ipairs(hand:items()) do
    local t = card:type()
    if not by_type[t] then by_type[t] = {}; order[#order + 1] = t end
    local list = by_type[t]
    list[#list + 1] = card
  end
  table.sort(order)
  for _, t in ipairs(order) do
    local list = by_type[t]
    for k = 2, #list, 2 do
      list[k - 1]:move(game.table)
      list[k]:move(game.table)
      game:say("%s lays a pair of %s on the table", game:player_name(seat), plural(list[k]:title()))
    end
  end
end

-- "If you get rid of all your cards you are safe and you take no further
-- part": out of this round only.
function rules.check_safe(game, seat)
  if game.hands[seat]:empty() and not game:is_sitting_out(seat) then
    game:say("%s has no cards left and is safe", game:player_name(seat))
    game:sit_out(seat)
  end
end

-- Which card of `from`'s fan to draw: unseen, so a private decision among
-- positions. With a peek left, the drawer may first look at one card in
-- secret and then take it or draw another.
function rules.choose_card(game, seat, from)
  local hand = game.hands[from]
  local n = hand:count()
  local owner = game:player_name(from)
  if game.peeks_left[seat] > 0 and n > 1 and
     game:choose(seat, string.format("Peek at one of %s's cards before drawing?", owner), {false, true}) then
    game.peeks_left[seat] = game.peeks_left[seat] - 1
    local _, i = game:choose(seat, string.format("Peek at which of %s's cards?", owner), positions(game, n),
                             {private = true})
    local card = hand:get(i)
    card:peek(seat)
    game:say("%s peeks at one of %s's cards", game:player_name(seat), owner)
    game:say_to(seat, "It is %s", rules.a(card:title()))
    if game:choose(seat, "Take the card you peeked at?", {false, true}) then return card end
    local others = {}
    for k = 1, n do
      if k ~= i then others[#others + 1] = {label = string.format("card %d of %d", k, n), index = k} end
    end
    local pick = game:choose(seat, string.format("Draw which other card of %s's?", owner), others, {private = true})
    return hand:get(pick.index)
  end
  local _, i = game:choose(seat, string.format("Draw which of %s's cards?", owner), positions(game, n),
                           {private = true})
  return hand:get(i)
end

-- "Each player in turn shuffles his hand and offers it face down to the
-- player to his left, who draws one card": on your turn you draw from the
-- nearest player on your right who still holds cards.
function rules.turn(game, seat)
  local from = game:previous_seat(seat)
  game.hands[from]:shuffle()
  local card = rules.choose_card(game, seat, from)
  card:move(game.hands[seat])
  game:say("%s draws a card from %s", game:player_name(seat), game:player_name(from))
  game:say_to(seat, "You drew %s from %s", rules.a(card:title()), game:player_name(from))
  game:say_to(from, "%s drew your %s", game:player_name(seat), card:title())
  rules.lay_pairs(game, seat)
  rules.check_safe(game, from)
  rules.check_safe(game, seat)
end

-- One deal: returns the seat left holding the Old Maid.
function rules.play_round(game)
  local dealer = game.state.dealer
  local first = (dealer + 1) % game:player_count()
  game:begin_round(first)
  game:say("%s deals", game:player_name(dealer))
  rules.deal(game, first)
  for seat = 0, game:player_count() - 1 do rules.lay_pairs(game, seat) end
  for seat = 0, game:player_count() - 1 do rules.check_safe(game, seat) end
  local seat = first
  if game:is_sitting_out(seat) then seat = game:next_seat(seat) end
  while game:active_count() > 1 do
    game:begin_turn(seat)
    rules.turn(game, seat)
    seat = game:next_seat(seat)
  end
  for s = 0, game:player_count() - 1 do
    if not game:is_sitting_out(s) then return s end
  end
end

-- "The player who has that card is the Old Maid": a penalty point. The
-- deal passes to the left.
function rules.play(game)
  local target = game.options.penalty_target
  while true do
    local loser = rules.play_round(game)
    local queen = game.hands[loser]:top()
    if queen then queen:reveal() end
    local name = game:player_name(loser)
    local points = game:add_score(loser, 1)
    game.state.penalties[name] = points
    game:say("%s is left holding the odd Queen: %s is the Old Maid (%d of %d)", name, name, points, target)
    if points >= target then
      local winners = {}
      for seat = 0, game:player_count() - 1 do
        if seat ~= loser then winners[#winners + 1] = seat end
      end
      return game:finish{
        winners = winners,
        losers = {loser},
        reason = "old-maid",
        summary = string.format("%s is the Old Maid %d times", name, points),
        details = {rounds = game:game_round()},
      }
    end
    game.state.dealer = (game.state.dealer + 1) % game:player_count()
  end
end

-- The game's estimate of a seat's share of the win, for bots (greedy,
-- cut-off rollouts). One player loses, the others share the win: a seat's
-- chance to be the loser grows with its penalty points against the target
-- and with the cards it still holds this round (a safe player holds none);
-- its share is (1 - that chance) / (players - 1).
function rules.evaluate(game, seat)
  local n = game:player_count()
  local target = game.options.penalty_target
  local mine, total = 0, 0
  for s = 0, n - 1 do
    local w = math.exp(3 * game:score(s) / target) * (1 + game.hands[s]:count())
    if s == seat then mine = w end
    total = total + w
  end
  return (1 - mine / total) / (n - 1)
end


-- How the game stands, for every seat alike (the terminal and the web
-- table show it): who deals, each hand's size and penalty points, the
-- pairs laid down. Counts only: nobody's cards.
function rules.describe(game, seat)
  local lines = {}
  if not game.hands or game.state.dealer == nil then return lines end
  lines[#lines + 1] = {label = "dealer", value = game:player_name(game.state.dealer)}
  for s = 0, game:player_count() - 1 do
    local name = game:player_name(s)
    lines[#lines + 1] = {label = s == seat and name .. " (you)" or name,
                         value = string.format("%d cards in hand, %d penalty points", game.hands[s]:count(),
                                               game.state.penalties[name] or 0)}
  end
  lines[#lines + 1] = {label = "pairs on the table", value = game.table:count() // 2}
  return lines
end

return rules
