-- A small Hanabi, as the Hanabi Learning Environment (HLE) plays its
-- Hanabi-Small configuration: hanabi_lib/hanabi_state.cc (MoveIsLegal,
-- ApplyMove, EndOfGameStatus, Score) and hanabi_game.cc (the deck, the
-- order of moves). One function per step, so that a variant can replace
-- it. README.md lists every interpretation.
local rules = {}

local COLOURS = {"red", "yellow"}
local COLOUR_TITLE = {red = "Red", yellow = "Yellow"}
local RANKS = 5

local function name(game, seat) return game:player_name(seat) end

function rules.setup(game)
  game.deck = game:zone("deck")
  game.fireworks = game:zone("fireworks")
  game.discards = game:zone("discards")
  game.hands = {}
  for seat = 0, game:player_count() - 1 do game.hands[seat] = game:zone("hand", seat) end
  -- Public: the tokens, each colour's firework (the rank on top, 0: none),
  -- and what each player has been told of each card in their hand, oldest
  -- card first ("red", "3", "red 3"; "" when nothing).
  game.state.information = game.options.information_tokens
  game.state.lives = game.options.life_tokens
  game.state.fireworks = {}
  for _, colour in ipairs(COLOURS) do game.state.fireworks[colour] = 0 end
  game.state.clues = {}
  for seat = 0, game:player_count() - 1 do game.state.clues[name(game, seat)] = {} end
  -- The same as HLE's card knowledge, for rules.deal_unseen: per seat and
  -- card, the colour and rank it is (when told) and those it is not (a
  -- clue that passed it by).
  game.knowledge = {}
  for seat = 0, game:player_count() - 1 do game.knowledge[seat] = {} end
  -- HLE's turns_to_play: once the deck is empty, each player has one more turn.
  game.turns_to_play = game:player_count()
end

-- The cards on the fireworks.
function rules.fireworks(game)
  local total = 0
  for _, colour in ipairs(COLOURS) do total = total + game.state.fireworks[colour] end
  return total
end

-- HLE's Score: the sum of the fireworks, or 0 once the lives are gone.
function rules.score(game)
  if game.state.lives <= 0 then return 0 end
  return rules.fireworks(game)
end

-- A card drawn goes to the end of the hand (HLE's AddCard): position 1 is
-- the oldest card. Nothing is drawn from an empty deck.
function rules.draw(game, seat)
  local card = game.deck:top()
  if not card then return end
  card:move(game.hands[seat], "bottom")
  local clues = game.state.clues[name(game, seat)]
  clues[#clues + 1] = ""
  local known = game.knowledge[seat]
  known[#known + 1] = {colour = nil, rank = nil, not_colour = {}, not_rank = {}}
end

-- HLE deals the hands one after another, each in full, from seat 0.
function rules.deal(game)
  game.deck:shuffle()
  for seat = 0, game:player_count() - 1 do
    for _ = 1, game.options.hand_size do rules.draw(game, seat) end
  end
end

-- The card at `position` leaves the hand; what its owner was told of it goes too.
local function take(game, seat, position)
  table.remove(game.state.clues[name(game, seat)], position)
  table.remove(game.knowledge[seat], position)
  return game.hands[seat]:get(position)
end

-- Every move HLE allows, in its order (its move uids): discard each card
-- (only below the most information tokens), play each card, a colour clue
-- for each other player (nearest on the left first) and colour in their
-- hand, then a rank clue likewise (clues only with a token left).
function rules.moves(game, seat)
  local list = {}
  local n = game.hands[seat]:count()
  if game.state.information < game.options.information_tokens then
    for i = 1, n do list[#list + 1] = {kind = "discard", position = i, label = string.format("discard card %d", i)} end
  end
  for i = 1, n do list[#list + 1] = {kind = "play", position = i, label = string.format("play card %d", i)} end
  if game.state.information > 0 then
    for _, key in ipairs({"colour", "rank"}) do
      for offset = 1, game:player_count() - 1 do
        local target = (seat + offset) % game:player_count()
        local present = {}
        for _, card in ipairs(game.hands[target]:items()) do present[card:attr(key)] = true end
        local values = key == "colour" and COLOURS or {1, 2, 3, 4, 5}
        for _, value in ipairs(values) do
          if present[value] then
            local said = key == "colour" and value or string.format("%ds", value)
            list[#list + 1] = {kind = "clue", key = key, value = value, target = target,
                               label = string.format("tell %s: %s", name(game, target), said)}
          end
        end
      end
    end
  end
  return list
end

-- A clue: every card of that colour or rank in the target's hand is
-- pointed out (HLE's RevealColor / RevealRank), for a token.
function rules.clue(game, seat, move)
  game.state.information = game.state.information - 1
  local clues = game.state.clues[name(game, move.target)]
  local positions = {}
  local known = game.knowledge[move.target]
  local not_key = move.key == "colour" and "not_colour" or "not_rank"
  for i, card in ipairs(game.hands[move.target]:items()) do
    if card:attr(move.key) ~= move.value then
      known[i][not_key][move.value] = true
    else
      known[i][move.key] = move.value
      positions[#positions + 1] = tostring(i)
      local before, told = clues[i], tostring(move.value)
      if move.key == "colour" then
        clues[i] = before:match("^%d$") and (told .. " " .. before) or told
      else
        clues[i] = (before ~= "" and not before:match("%d")) and (before .. " " .. told) or told
      end
    end
  end
  local many = #positions > 1
  local what = move.key == "colour" and move.value or string.format(many and "%ds" or "a %d", move.value)
  game:say("%s tells %s: card%s %s %s %s", name(game, seat), name(game, move.target), many and "s" or "",
           table.concat(positions, " and "), many and "are" or "is", what)
end

-- Discarding wins an information token back (HLE: never above the most).
function rules.discard(game, seat, position)
  local card = take(game, seat, position)
  card:move(game.discards)
  game.state.information = math.min(game.state.information + 1, game.options.information_tokens)
  game:say("%s discards %s", name(game, seat), card:title())
end

-- HLE's AddToFireworks: the next rank of its colour scores (a completed
-- firework wins a token back, below the most); any other card costs a life
-- and goes to the discard pile.
function rules.play_card(game, seat, position)
  local card = take(game, seat, position)
  local colour, rank = card:attr("colour"), card:attr("rank")
  if game.state.fireworks[colour] + 1 == rank then
    card:move(game.fireworks)
    game.state.fireworks[colour] = rank
    game:say("%s plays %s: the %s firework is at %d", name(game, seat), card:title(), colour, rank)
    if rank == RANKS and game.state.information < game.options.information_tokens then
      game.state.information = game.state.information + 1
    end
  else
    card:move(game.discards)
    game.state.lives = game.state.lives - 1
    game:say("%s plays %s, which does not fit: a life is lost (%d left)", name(game, seat), card:title(),
             game.state.lives)
  end
end

-- One turn: a move, then a card from the deck while it lasts. The move is
-- private, and the rules announce it (the clue said, the card shown): the
-- options depend on the other hands (a clue only for a colour or rank they
-- hold), so a move's position among them would tell a player about its own
-- hand, which it does not see (rulebook check's worlds test).
function rules.turn(game, seat)
  local move = game:choose(seat, "Your move", rules.moves(game, seat), {private = true})
  if move.kind == "clue" then rules.clue(game, seat, move)
  elseif move.kind == "discard" then rules.discard(game, seat, move.position)
  else rules.play_card(game, seat, move.position) end
  if move.kind ~= "clue" then rules.draw(game, seat) end
end

-- HLE's EndOfGameStatus, after every move: no life left, every firework
-- complete, or the deck empty and every player's last turn played.
function rules.ended(game)
  if game.state.lives <= 0 then return "no-life-left" end
  if rules.score(game) >= #COLOURS * RANKS then return "fireworks-complete" end
  if game.turns_to_play <= 0 then return "deck-played-out" end
end

-- Everybody shares the score: it is every seat's return, and every seat
-- wins with a score above 0.
function rules.finish(game, reason)
  local score = rules.score(game)
  local winners, returns = {}, {}
  for seat = 0, game:player_count() - 1 do
    returns[seat + 1] = score
    if score > 0 then winners[#winners + 1] = seat end
  end
  return game:finish{
    winners = winners,
    returns = returns,
    reason = reason,
    summary = string.format("the fireworks score %d", score),
    stats = {score = score, fireworks = rules.fireworks(game)},
  }
end

function rules.play(game)
  rules.deal(game)
  local seat = 0
  while true do
    game:begin_turn(seat)
    -- HLE counts down the last turns on every move made with the deck empty.
    local deck_was_empty = game.deck:empty()
    rules.turn(game, seat)
    if deck_was_empty then game.turns_to_play = game.turns_to_play - 1 end
    local reason = rules.ended(game)
    if reason then return rules.finish(game, reason) end
    seat = (seat + 1) % game:player_count()
  end
end

-- The game's estimate of a seat's share of the win, for bots (greedy,
-- cut-off rollouts). Everybody wins or nobody does, so every seat gets
-- the same: a score above 0 is a win (1 / players each); with nothing on
-- the fireworks yet the team may still score, an even chance.
function rules.evaluate(game, seat)
  local chance = rules.score(game) > 0 and 1 or (game.state.lives > 0 and 0.5 or 0)
  return chance / game:player_count()
end

-- Whether a card may be one a player was told `told` of.
local function fits(card, told)
  local colour, rank = card:attr("colour"), card:attr("rank")
  return (told.colour == nil or told.colour == colour) and (told.rank == nil or told.rank == rank) and
         not told.not_colour[colour] and not told.not_rank[rank]
end

-- A sampling hint for search bots (docs/lua-api.md, rules.deal_unseen). A
-- player does not see their own cards, but the clues told them something:
-- the runtime's samples would deal them any unseen card, and a replay whose
-- clues read differently is rejected. Each card of the seat's hand takes
-- the identity of an unseen card that fits what the seat was told (tried
-- from a random place, backtracking); the other unseen cards take what is
-- left, in order. With no fit (never, when the clues are true) the random
-- draw stays.
function rules.deal_unseen(game, seat, unseen)
  local position = {}
  for i, card in ipairs(game.hands[seat]:items()) do position[card] = i end
  local held, dealt, used = {}, {}, {}
  for k, c in ipairs(unseen) do
    dealt[k] = c
    if position[c] then held[#held + 1] = k end
  end
  local function assign(i)
    if i > #held then return true end
    local k = held[i]
    local told = game.knowledge[seat][position[unseen[k]]]
    local start = math.random(#unseen)
    for step = 0, #unseen - 1 do
      local c = unseen[(start + step - 1) % #unseen + 1]
      if not used[c] and fits(c, told) then
        used[c], dealt[k] = true, c
        if assign(i + 1) then return true end
        used[c] = nil
      end
    end
    return false
  end
  if not assign(1) then return unseen end
  local rest = {}
  for _, c in ipairs(unseen) do
    if not used[c] then rest[#rest + 1] = c end
  end
  local r = 0
  for k, c in ipairs(unseen) do
    if not position[c] then
      r = r + 1
      dealt[k] = rest[r]
    end
  end
  return dealt
end

-- How the game stands, for every seat alike: tokens, fireworks, the deck,
-- and what each player was told of their cards (never a card itself).
function rules.describe(game, seat)
  local lines = {}
  if not game.hands or game.state.information == nil then return lines end
  lines[#lines + 1] = {label = "information tokens", value = game.state.information}
  lines[#lines + 1] = {label = "lives", value = game.state.lives}
  for _, colour in ipairs(COLOURS) do
    lines[#lines + 1] = {label = COLOUR_TITLE[colour] .. " firework", value = game.state.fireworks[colour]}
  end
  lines[#lines + 1] = {label = "cards in the deck", value = game.deck:count()}
  for s = 0, game:player_count() - 1 do
    local told = {}
    for i, clue in ipairs(game.state.clues[name(game, s)]) do
      told[#told + 1] = string.format("%d: %s", i, clue ~= "" and clue or "?")
    end
    lines[#lines + 1] = {label = name(game, s) .. (s == seat and " (you) was told" or " was told"),
                         value = table.concat(told, ", ")}
  end
  return lines
end

return rules
