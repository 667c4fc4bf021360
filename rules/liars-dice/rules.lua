-- Liar's Dice, a traditional dice game. The default options play
-- OpenSpiel's liars_dice exactly (open_spiel/games/liars_dice/liars_dice.cc);
-- the traditional game of rounds ("lose a die") and the game without wilds
-- are options that variants set. README.md here gives the sources and every
-- interpretation. One function per step of the rules, so that a variant can
-- replace it.
local rules = {}

-- An option's label is read only by an agent that shows it, a log or a
-- sink, never in a plain simulate: a bid builds its label when first read
-- and keeps it (a search bot reads every bid's label at each of its steps).
local BID_LABEL = {__index = function(bid, key)
  if key == "label" then
    local label = string.format("bid %d x %s", bid.quantity, bid.face)
    bid.label = label
    return label
  end
end}
local LIAR = {label = "call Liar"}
local PROMPT = "Bid how many dice on the table show a face, or call Liar"

function rules.setup(game)
  local options = game.options
  game.box = game:zone("box")
  game.cups = {}
  -- Dice each seat rolls this round (the traditional game takes one away
  -- from each challenge's loser).
  game.dice_left = {}
  for seat = 0, game:player_count() - 1 do
    game.cups[seat] = game:zone("cup", seat)
    game.dice_left[seat] = options.dice
  end
  -- The dice's faces "1" to options.sides (game.yaml shapes them).
  local faces = game.box:top():faces()
  game.sides = #faces
  game.face_name = faces
  -- OpenSpiel: "The highest face (`dice_sides`) is wild."
  game.wild = options.wild == "highest" and faces[game.sides] or nil
  game.reset_face = options.bidding == "reset-face"
  game.offer = {}
  game.talk = game:listening()
end

-- The number of dice in the cups this round: the most a bid may name.
function rules.dice_in_play(game)
  local total = 0
  for seat = 0, game:player_count() - 1 do total = total + game.dice_left[seat] end
  return total
end

-- Every seat still in the game puts its dice in its cup, unseen by the
-- others: the dice of the last round go back to the box first (so that a
-- die shown at the last challenge is hidden again before it is rolled).
function rules.deal(game)
  local box = game.box
  for seat = 0, game:player_count() - 1 do game.cups[seat]:move_all(box) end
  for seat = 0, game:player_count() - 1 do
    box:move_top(game.dice_left[seat], game.cups[seat])
  end
end

-- "Each player rolls their dice" in their cup, seat by seat (OpenSpiel rolls
-- player 0's dice, then player 1's).
function rules.roll(game)
  for seat = 0, game:player_count() - 1 do
    game.cups[seat]:roll()
  end
end

-- The round's bids by rank, as OpenSpiel encodes them: bids are ranked 0
-- to dice * sides - 1 and a bid must rank higher than the last one.
-- reset-face: rank = (quantity - 1) * sides + face - 1 (more dice, or as
-- many dice of a higher face); reset-quantity: rank = (face - 1) * dice +
-- quantity - 1 (a higher face, or more of the same face).
function rules.bids(game)
  local bids, sides, dice, names = {}, game.sides, game.in_play, game.face_name
  for rank = 0, dice * sides - 1 do
    local quantity, face
    if game.reset_face then
      quantity, face = rank // sides + 1, rank % sides + 1
    else
      quantity, face = rank % dice + 1, rank // dice + 1
    end
    bids[rank] = setmetatable({rank = rank, quantity = quantity, face = names[face]}, BID_LABEL)
  end
  return bids
end

-- The options of a player in turn, in OpenSpiel's order: every bid that
-- ranks higher than the last one, then "Liar" once somebody has bid.
function rules.options(game, last)
  local offer, bids, n = game.offer, game.bids, 0
  for rank = last + 1, #bids do             -- bids[0] is not counted: #bids is the highest rank
    n = n + 1
    offer[n] = bids[rank]
  end
  if last >= 0 then
    n = n + 1
    offer[n] = LIAR
  end
  for k = #offer, n + 1, -1 do offer[k] = nil end
  return offer
end

-- The bidding, from `first` round the table, until a player calls the last
-- bidder a liar: returns the bidder, the caller and the bid.
function rules.bidding(game, first)
  local state = game.state
  local seat, last, bidder = first, -1, nil
  while true do
    game:begin_turn(seat)
    local choice = game:choose(seat, PROMPT, rules.options(game, last))
    if choice == LIAR then return bidder, seat, game.bids[last] end
    last, bidder = choice.rank, seat
    game.bidder = seat
    state.quantity, state.face, state.bidder = choice.quantity, choice.face, game:player_name(seat)
    seat = game:next_seat(seat)
  end
end

-- How many dice on the table count for a bid of `face`: those showing it
-- and, unless it is the wild face itself, those showing the wild face.
function rules.count(game, face)
  local wild = game.wild
  local matches = 0
  for seat = 0, game:player_count() - 1 do
    local cup = game.cups[seat]
    if wild and wild ~= face then
      local shown, wilds = cup:count(face, wild)
      matches = matches + shown + wilds
    else
      matches = matches + cup:count(face)
    end
  end
  return matches
end

-- "Liar!": the cups are lifted. If the table holds at least as many dice
-- as the bid named, the bid stands and the caller loses; otherwise the
-- bidder loses. Returns the loser, the winner and whether the bid stood.
function rules.challenge(game, bidder, caller, bid)
  for seat = 0, game:player_count() - 1 do
    local cup = game.cups[seat]
    for i = 1, cup:count() do cup:get(i):reveal() end
  end
  local matches = rules.count(game, bid.face)
  local stands = matches >= bid.quantity
  if game.talk then
    local counted = game.wild and game.wild ~= bid.face and string.format("%s or the wild %s", bid.face, game.wild)
      or bid.face
    game:say("%s calls %s a liar: %d %s %s, the bid of %d x %s %s", game:player_name(caller),
             game:player_name(bidder), matches, matches == 1 and "die shows" or "dice show", counted, bid.quantity,
             bid.face, stands and "stands" or "fails")
  end
  if stands then return caller, bidder, true end
  return bidder, caller, false
end

-- The traditional game: the loser puts a die back in the box; a player
-- with no dice left is out. Returns the seat that starts the next round:
-- the loser, or the next player still in if the loser is out.
function rules.lose_a_die(game, loser)
  local left = game.dice_left[loser] - 1
  game.dice_left[loser] = left
  game.cups[loser]:move_top(1, game.box)
  game.state.dice[game:player_name(loser)] = left
  if game.talk then game:say("%s loses a die (%d left)", game:player_name(loser), left) end
  if left > 0 then return loser end
  game:eliminate(loser)
  return game:next_seat(loser)
end

-- One round: deal, roll, bid until "Liar". Returns the loser, the winner
-- and whether the bid stood.
function rules.play_round(game, first)
  game.in_play = rules.dice_in_play(game)
  game.bids = rules.bids(game)
  local state = game.state
  state.quantity, state.face, state.bidder = nil, nil, nil
  rules.deal(game)
  rules.roll(game)
  return rules.challenge(game, rules.bidding(game, first))
end

function rules.play(game)
  if not game.options.lose_a_die then
    -- OpenSpiel: one challenge ends the game; the winner's return is 1, the
    -- loser's -1 (the scores), anybody else's 0.
    local loser, winner, stands = rules.play_round(game, game:first_seat())
    game:add_score(winner, 1)
    game:add_score(loser, -1)
    return game:finish{winners = {winner}, losers = {loser}, reason = stands and "bid-stands" or "bid-fails"}
  end
  game.state.dice = {}
  for seat = 0, game:player_count() - 1 do game.state.dice[game:player_name(seat)] = game.dice_left[seat] end
  local first = game:first_seat()
  while true do
    game:begin_round(first)
    local loser = rules.play_round(game, first)
    first = rules.lose_a_die(game, loser)
    if game:active_count() == 1 then
      local losers = {}
      for seat = 0, game:player_count() - 1 do
        if seat ~= first then losers[#losers + 1] = seat end
      end
      return game:finish{winners = {first}, losers = losers, reason = "last-with-dice",
                         summary = string.format("%s is the last player with dice", game:player_name(first))}
    end
  end
end

-- The chance that at least `need` of `n` dice nobody has shown count for
-- a face, each with probability p: the binomial distribution's tail, summed
-- term by term (p may be 1: two-sided dice with a wild face).
local function at_least(need, n, p)
  if need <= 0 then return 1 end
  local sum, ways = 0, 1 -- ways: n choose k
  for k = 0, n do
    if k >= need then sum = sum + ways * p ^ k * (1 - p) ^ (n - k) end
    ways = ways * (n - k) / (k + 1)
  end
  return sum
end

-- The game's estimate of a seat's share of the win, for bots. In the game
-- of one challenge, the last bid is what will be called: the seat's chance
-- that it stands, judged from its own dice only (the others' are unseen),
-- is the bidder's share and the rest the share of the next player, who
-- would call it. In the traditional game, a seat's share of the dice
-- (squared) among the players still in.
function rules.evaluate(game, seat)
  local n = game:player_count()
  local dice_left = game.dice_left
  if game.options.lose_a_die then
    local total = 0
    for s = 0, n - 1 do total = total + dice_left[s] * dice_left[s] end
    return dice_left[seat] * dice_left[seat] / total
  end
  local state = game.state
  if state.quantity == nil then return 1 / n end
  local face, wild, own = state.face, game.wild, game.cups[seat]
  local p, counted = 1 / game.sides, nil
  if wild and wild ~= face then
    local shown, wilds = own:count(face, wild)
    p, counted = 2 / game.sides, shown + wilds
  else
    counted = own:count(face)
  end
  local stands = at_least(state.quantity - counted, game.in_play - dice_left[seat], p)
  if seat == game.bidder then return stands end
  if seat == game:next_seat(game.bidder) then return 1 - stands end
  return 0
end

-- How the game stands, for a seat: the bid to beat, what counts as wild,
-- each player's dice under the cup (the seat's own faces for the seat).
function rules.describe(game, seat)
  local lines = {}
  local state = game.state
  if state.quantity then
    lines[#lines + 1] = {label = "the bid", value = string.format("%s: %d x %s", state.bidder, state.quantity,
                                                                    state.face)}
  else
    lines[#lines + 1] = {label = "the bid", value = "nobody has bid yet"}
  end
  lines[#lines + 1] = {label = "wild", value = game.wild and "every " .. game.wild .. " counts as any face" or "none"}
  for s = 0, game:player_count() - 1 do
    local name = game:player_name(s)
    local cup = game.cups[s]
    -- "N in the cup", not "N dice": the check reads a component's title
    -- ("die") in a seat's view as naming it, even when the seat has none.
    local value = string.format("%d in the cup", cup:count())
    if s == seat then
      local faces = {}
      for i = 1, cup:count() do faces[i] = cup:get(i):face() end
      table.sort(faces, function(a, b) return tonumber(a) < tonumber(b) end)
      if #faces > 0 then value = value .. ": " .. table.concat(faces, " ") end
    end
    lines[#lines + 1] = {label = s == seat and name .. " (you)" or name, value = value}
  end
  return lines
end

return rules
