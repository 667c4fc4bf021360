-- Kuhn poker as OpenSpiel plays it (open_spiel/games/kuhn_poker/
-- kuhn_poker.cc): README.md here gives the source and every
-- interpretation. Chips are the game's returns (game:finish returns).
-- One function per step of the rules, so that a variant can replace it.
local rules = {}

local ANTE, BET = 1, 1
local PROMPT = "Pass or bet"
-- OpenSpiel's actions, in its order: 0 pass, 1 bet.
local ACTIONS = {"pass", "bet"}

function rules.setup(game)
  game.deck = game:zone("deck")
  game.hands = {}
  for seat = 0, game:player_count() - 1 do game.hands[seat] = game:zone("hand", seat) end
  game.talk = game:listening()
  game.deck:shuffle()
end

-- Each player, in seat order, takes the top card of the shuffled deck
-- (OpenSpiel deals each player a card uniformly from those left: the same).
function rules.deal(game)
  for seat = 0, game:player_count() - 1 do game.deck:top():move(game.hands[seat]) end
end

function rules.card_of(game, seat) return tonumber(game.hands[seat]:top():face()) end

-- One player's action; returns true for a bet.
function rules.act(game, seat, after_bet)
  game:begin_turn(seat)
  local choice = game:choose(seat, PROMPT, ACTIONS)
  local bet = choice == "bet"
  if game.talk then
    local said = bet and (after_bet and "calls (bets 1)" or "bets 1") or (after_bet and "folds (passes)" or "passes")
    game:say("%s %s", game:player_name(seat), said)
  end
  return bet
end

-- The betting: every player in seat order; after the first bet the players
-- after the bettor answer it, then those before it, once each. Returns
-- whether each seat bet (0-based) and the first bettor (nil: nobody bet).
function rules.betting(game)
  local n = game:player_count()
  local bet, first = {}, nil
  for seat = 0, n - 1 do
    bet[seat] = rules.act(game, seat, first ~= nil)
    if bet[seat] and first == nil then first = seat end
  end
  if first ~= nil then
    for seat = 0, first - 1 do bet[seat] = rules.act(game, seat, true) end
  end
  return bet, first
end

-- The winner: the highest card among those who bet, or among all when
-- nobody bet (OpenSpiel looks from the highest card down); and how the
-- hand ended.
function rules.winner(game, bet, first)
  local n, holder, count = game:player_count(), {}, 0
  for seat = 0, n - 1 do
    holder[rules.card_of(game, seat)] = seat
    if first == nil or bet[seat] then count = count + 1 end
  end
  local best
  for card = n, 0, -1 do
    local seat = holder[card]
    if best == nil and seat ~= nil and (first == nil or bet[seat]) then best = seat end
  end
  if first == nil then return best, "all-passed" end
  if count == 1 then return best, "uncalled" end
  return best, "showdown"
end

-- Every player paid the ante and, when they bet, the bet; the winner takes
-- the pot. Returns in chips, OpenSpiel's Returns().
function rules.finish(game, bet, first)
  local n = game:player_count()
  local winner, reason = rules.winner(game, bet, first)
  local pot, paid, returns, losers = 0, {}, {}, {}
  for seat = 0, n - 1 do
    paid[seat] = ANTE + (bet[seat] and BET or 0)
    pot = pot + paid[seat]
  end
  for seat = 0, n - 1 do
    returns[seat + 1] = seat == winner and pot - paid[seat] or -paid[seat]
    if seat ~= winner then losers[#losers + 1] = seat end
  end
  -- The cards of the players still in are shown (all of them when nobody bet).
  if reason ~= "uncalled" then
    for seat = 0, n - 1 do
      if first == nil or bet[seat] then game.hands[seat]:top():reveal() end
    end
  end
  return game:finish{winners = {winner}, losers = losers, reason = reason, returns = returns,
                     summary = string.format("%s wins the pot of %d with %s", game:player_name(winner), pot,
                                             reason == "uncalled" and "nobody calling" or
                                               "the card " .. rules.card_of(game, winner))}
end

function rules.play(game)
  rules.deal(game)
  return rules.finish(game, rules.betting(game))
end

-- A seat's share of the win as it stands, from what it knows: once dealt,
-- the chance that its card is the highest of the n dealt from the n + 1
-- (the others' cards drawn from the n it does not hold); 1/n before.
-- Search bots score a cut-off rollout with it; it says nothing of chips.
function rules.evaluate(game, seat)
  local n = game:player_count()
  if game.hands[seat]:count() == 0 then return 1 / n end
  local lower = rules.card_of(game, seat)  -- cards 0..n: this many are lower
  -- C(lower, n - 1) / C(n, n - 1): all n - 1 others hold lower cards.
  local ways = 1
  for k = 0, n - 2 do ways = ways * (lower - k) / (k + 1) end
  return math.max(ways, 0) / n
end

-- How the hand stands, for a seat: its own card. A reader who holds no
-- hand (an onlooker, a web table's spectators) is told the deck only.
function rules.describe(game, seat)
  local lines = {}
  local hand = seat ~= nil and game.hands[seat]
  if hand and hand:count() > 0 then
    lines[#lines + 1] = {label = "your card", value = hand:top():face()}
  end
  lines[#lines + 1] = {label = "cards in the deck", value = tostring(game.deck:count())}
  return lines
end

-- Scenarios: the deck in a forced order, card numbers from the top (run
-- after setup, which shuffled; the deal takes from the top in seat order).
function rules.stack_deck(game, cards)
  for i = #cards, 1, -1 do
    game.deck:find(tostring(cards[i])):move(game.deck)
  end
end

return rules
