-- Pass the Pandas (Ken Gruhl & Quentin Weir).
-- Each function is one step of the rulebook, so a variant can replace it.
local rules = {}

-- The turn's steps and players_out as this file writes them (set at the
-- end): while a game's are all these, `rules.turn` plays the steps in one
-- function and tells play_round when nobody can be out.
local written_roll, written_evaporate, written_panda_recipients, written_pass_pandas,
      written_bamboo_challenge, written_keep_blanks, written_players_out

-- "Each player starts with four to six dice, depending on the number of players."
function rules.deal(game)
  local supply = game.supply
  for seat = 0, game:player_count() - 1 do
    game.dice[seat]:move_all(supply)
  end
  game.evaporated:move_all(supply)
  local per_player = game.options.dice_per_player[tostring(game:player_count())]
  -- A deal the box cannot cover is refused: dealing what is left would give
  -- the later seats fewer dice than the rules say, silently.
  if per_player * game:player_count() > supply:count() then
    error(string.format("options.dice_per_player: %d players with %d dice each need %d dice, but the box holds %d",
                        game:player_count(), per_player, per_player * game:player_count(), supply:count()))
  end
  for seat = 0, game:player_count() - 1 do
    supply:move_top(per_player, game.dice[seat])
  end
  game.state.last_roller = nil
  game.state.last_bamboo = 0
  rules.update_recipients(game)
end

function rules.setup(game)
  -- The zones, looked up once: game is this game's own table.
  game.talk = game:listening()  -- is anybody reading what the rules say?
  game.supply = game:zone("supply")
  game.evaporated = game:zone("evaporated")
  -- Tables built with room for what goes in them: filling room costs less
  -- than growing an empty table, which rehashes it at each new size
  -- (docs/writing-a-game.md, "Fast rules"). Room for seats 0 to 4: four
  -- in the list, and one key besides (a named field of the constructor
  -- makes room for one, whatever its name: seat 0's); more players only
  -- grow it.
  game.dice = {nil, nil, nil, nil, seat_0 = nil}
  for seat = 0, game:player_count() - 1 do
    game.dice[seat] = game:zone("dice", seat)
  end
  -- Has a variant replaced a step of the turn (Bamboozled replaces
  -- keep_blanks) or who is out? Then the turn calls each step, and
  -- players_out is asked after every turn.
  game.step_by_step = not (rules.roll == written_roll and rules.evaporate == written_evaporate
    and rules.panda_recipients == written_panda_recipients and rules.pass_pandas == written_pass_pandas
    and rules.bamboo_challenge == written_bamboo_challenge and rules.keep_blanks == written_keep_blanks
    and rules.players_out == written_players_out)
  rules.deal(game)
end

-- 1. "Roll all of your dice." Returns what was rolled: the game's one
-- `rolled` table, filled again each turn (no new table per turn).
function rules.roll(game, seat, pool)
  local rolled = game.rolled
  if not rolled then  -- made on the game's first step-by-step turn
    rolled = {}
    game.rolled = rolled
  end
  -- One call rolls the dice and counts the faces (pool:roll() then
  -- pool:count(...) would be two).
  rolled.dice, rolled.panda, rolled.bamboo, rolled.water, rolled.blank =
    pool:roll("panda", "bamboo", "water", "blank")
  return rolled
end

-- 2. "All Water Drops rolled are immediately removed from the game."
function rules.evaporate(game, seat, pool, rolled)
  if rolled.water > 0 then
    pool:move_matching("water", game.evaporated)
  end
end

-- Players a panda may go to: everybody else still in the round. Kept per
-- game and rebuilt when somebody goes out or a round starts.
function rules.update_recipients(game)
  local n = game:player_count()
  local everybody_in = game:active_count() == n
  game.recipients = {nil, nil, nil, nil, seat_0 = nil}  -- room for seats 0 to 4 (see setup)
  for seat = 0, n - 1 do
    local others = {nil, nil, nil, nil}
    for other = 0, n - 1 do
      if other ~= seat and (everybody_in or not game:is_eliminated(other)) then
        others[#others + 1] = other
      end
    end
    game.recipients[seat] = others
  end
end

function rules.panda_recipients(game, seat)
  return game.recipients[seat]
end

-- 3. "Players who roll a Panda give that die to any other player of their
-- choice." One decision per panda die.
local function give_pandas(game, seat, pool, pandas, others)
  for _ = 1, pandas do
    local to = game:choose(seat, "Pass a panda die to", others, "seat")
    pool:move_matching("panda", game.dice[to], 1)
  end
end

function rules.pass_pandas(game, seat, pool, rolled)
  if rolled.panda == 0 then return end
  give_pandas(game, seat, pool, rolled.panda, rules.panda_recipients(game, seat))
end

-- 4. "Compare the number of Bamboo you rolled with the previous player. If
-- they have more bamboo than you, they must pass you the difference."
-- Returns how many dice they passed.
local function challenge_bamboo(game, seat, pool, bamboo)
  -- Each field read once (a field read is a hash lookup; a local is not).
  local state = game.state
  local previous, challenge = state.last_roller, state.last_bamboo
  local passed = 0
  if previous ~= nil and previous ~= seat and bamboo < challenge then
    local difference = challenge - bamboo
    if game.talk then  -- the names are looked up only when somebody listens
      game:say("%s rolled %d bamboo, short of %s's %d: %s passes %d bamboo",
               game:player_name(seat), bamboo, game:player_name(previous), challenge,
               game:player_name(previous), difference)
    end
    passed = game.dice[previous]:move_matching("bamboo", pool, difference)
  end
  state.last_roller = seat
  state.last_bamboo = bamboo
  return passed
end

function rules.bamboo_challenge(game, seat, pool, rolled)
  challenge_bamboo(game, seat, pool, rolled.bamboo)
end

-- 5. "Keep all Blank dice." Nothing happens (Bamboozled replaces this).
function rules.keep_blanks(game, seat, pool, rolled)
end

-- A turn, step by step: each step is looked up in `rules`, so a variant's
-- step is the one played.
local function turn_step_by_step(game, seat)
  local pool = game.dice[seat]
  local rolled = rules.roll(game, seat, pool)
  rules.evaporate(game, seat, pool, rolled)
  rules.pass_pandas(game, seat, pool, rolled)
  rules.bamboo_challenge(game, seat, pool, rolled)
  rules.keep_blanks(game, seat, pool, rolled)
end

-- A turn. With every step as written, the same five steps in one function:
-- a game makes a third fewer calls (docs/writing-a-game.md, "Fast rules").
-- It then returns what it knows of who may be out: the dice the roller has
-- left and how many the previous player passed them (the only two who can
-- lose dice on a turn, see players_out). Played step by step, it returns
-- nothing. tests/unit/cli/test_fingerprints.cpp plays both ways and compares.
function rules.turn(game, seat)
  if game.step_by_step then return turn_step_by_step(game, seat) end
  local pool = game.dice[seat]
  local dice, panda, bamboo, water = pool:roll("panda", "bamboo", "water")  -- 1. roll
  if water > 0 then pool:move_matching("water", game.evaporated) end        -- 2. evaporate
  if panda > 0 then give_pandas(game, seat, pool, panda, game.recipients[seat]) end  -- 3. pandas
  local passed = challenge_bamboo(game, seat, pool, bamboo)                 -- 4. bamboo
  return dice - water - panda + passed, passed                              -- 5. blanks stay
end

-- "The game is over if any player has no dice left at either the end of
-- their own turn, or at the end of another player's turn." Seats with no
-- dice, starting with the player whose turn it was.
--
-- Only two players can lose dice on a turn: the roller (water, pandas,
-- an exchange) and the player who rolled before them (the bamboo
-- challenge); everybody else only receives. So given `previous`, the one
-- who rolled before, only those two are looked at; without it (nil: the
-- round's first turn, or a caller that does not know), every seat is.
local no_one = {}

local function is_out(game, dice, seat)
  return dice[seat]:empty() and not game:is_eliminated(seat)
end

function rules.players_out(game, seat, previous)
  local out, dice = no_one, game.dice
  if previous ~= nil then  -- is_out written out: 1.3% of a game's instructions
    local previous_out = previous ~= seat and dice[previous]:empty() and not game:is_eliminated(previous)
    if dice[seat]:empty() and not game:is_eliminated(seat) then
      return previous_out and {seat, previous} or {seat}
    end
    return previous_out and {previous} or no_one
  end
  local n = game:player_count()
  for i = 0, n - 1 do
    local other = (seat + i) % n
    if is_out(game, dice, other) then
      if out == no_one then out = {} end
      out[#out + 1] = other
    end
  end
  return out
end

-- Dice still held by players: Panda-monium's points for going out.
function rules.dice_in_play(game)
  local total = 0
  for seat = 0, game:player_count() - 1 do
    total = total + game.dice[seat]:count()
  end
  return total
end

-- A player has gone out: Panda-monium scores the dice still in play (at
-- least one: another player is still in, and holds dice, or would be out
-- too).
function rules.player_out(game, seat, place)
  if game.options.points_target > 0 then
    game:add_score(seat, rules.dice_in_play(game))
  end
end

-- One game (a round of Panda-monium); returns the seats in finishing order
-- and how many of them went out on the last turn.
function rules.play_round(game, first)
  local placings, state = {}, game.state
  local seat, out = first, nil
  while true do
    game:begin_turn(seat)
    local previous = state.last_roller  -- who the bamboo challenge may take from
    local left, passed = rules.turn(game, seat)
    if left ~= nil and left > 0 and passed == 0 then
      out = no_one  -- the roller kept dice and nobody else lost any: no zone to ask
    else
      out = rules.players_out(game, seat, previous)
    end
    local going_out = #out
    for k = 1, going_out do
      local s = out[k]
      placings[#placings + 1] = s
      rules.player_out(game, s, #placings)
      game:eliminate(s)
    end
    if going_out > 0 then
      if not game.options.play_for_places or game:active_count() <= 1 then break end
      rules.update_recipients(game)  -- playing on for places: without those out
    end
    seat = game:next_seat(seat)
  end
  -- Whoever is still in finishes after, in turn order from the last roller.
  local n = game:player_count()
  for i = 1, n do
    local s = (seat + i) % n
    if not game:is_eliminated(s) then placings[#placings + 1] = s end
  end
  return placings, #out
end

local function seat_names(game, seats)
  local names = {}
  for i = 1, #seats do names[i] = game:player_name(seats[i]) end
  return table.concat(names, ", ")
end

function rules.play(game)
  if game.options.points_target > 0 then
    return rules.play_to_points(game)
  end
  local placings, last_out = rules.play_round(game, game:first_seat())
  game.state.placings = placings  -- public: the finishing order, first out first
  -- Everyone with no dice at the end of that turn has won: whoever went
  -- out on it (at most one, in practice); playing for places, the first
  -- one out wins.
  local winners = {}
  if game.options.play_for_places then
    winners[1] = placings[1]
  else
    for k = 1, last_out do winners[k] = placings[k] end
  end
  game:finish{
    winners = winners,
    -- Playing for places, the game goes on until the places are decided.
    reason = game.options.play_for_places and "places-decided" or "no-dice-left",
    summary = seat_names(game, winners) .. " has no dice left and wins",
    details = {placings = placings},
  }
end

-- Panda-monium: "Play to a certain number of points. When you win, you get
-- a point for each other die that is in play."
function rules.play_to_points(game)
  local target = game.options.points_target
  local first = game:first_seat()
  local round = 0
  while true do
    round = round + 1
    if round > 1 then
      for seat = 0, game:player_count() - 1 do game:reinstate(seat) end
      rules.deal(game)
      game:say("New round: %s starts", game:player_name(first))
    end
    rules.play_round(game, first)
    -- The scores by seat, for the result's details, as the winners are found.
    local best, winners, scores = nil, {}, {}
    for seat = 0, game:player_count() - 1 do
      local score = game:score(seat)
      scores[seat + 1] = score
      if best == nil or score > best then best, winners = score, {seat}
      elseif score == best then winners[#winners + 1] = seat end
    end
    if best >= target then
      return game:finish{
        winners = winners,
        reason = "points-target",
        summary = string.format("%s reaches %d points after %d rounds", seat_names(game, winners), best, round),
        details = {rounds = round, scores = scores},
      }
    end
    first = (first + 1) % game:player_count()
  end
end

-- The game's estimate of a seat's share of the win, for bots (greedy, cut-off
-- rollouts). "Try to be the first player to get rid of all of your dice":
-- the fewer dice a seat holds against the others, the likelier it goes out
-- first. Its share is its weight, 1 / (1 + dice)^2, among everyone's;
-- playing to points (Panda-monium), each point towards the target counts too.
function rules.evaluate(game, seat)
  local target = game.options.points_target
  local mine, total = 0, 0
  for s = 0, game:player_count() - 1 do
    local w = 1 / (1 + game.dice[s]:count()) ^ 2
    if target > 0 then w = w * math.exp(3 * game:score(s) / target) end
    if s == seat then mine = w end
    total = total + w
  end
  return mine / total
end


-- How the game stands, for every seat alike (the terminal and the web
-- table show it): each player's dice, who rolled last and how much bamboo.
function rules.describe(game, seat)
  local lines = {}
  if not game.dice then return lines end
  for s = 0, game:player_count() - 1 do
    local name = game:player_name(s)
    lines[#lines + 1] = {label = s == seat and name .. " (you)" or name,
                         value = string.format("%d dice%s", game.dice[s]:count(), game:is_eliminated(s) and ", out" or "")}
  end
  if game.state.last_roller ~= nil then
    lines[#lines + 1] = string.format("%s rolled last: %d bamboo", game:player_name(game.state.last_roller),
                                      game.state.last_bamboo or 0)
  end
  lines[#lines + 1] = {label = "evaporated water", value = game.evaporated:count()}
  return lines
end

written_roll, written_evaporate, written_panda_recipients, written_pass_pandas,
written_bamboo_challenge, written_keep_blanks, written_players_out =
  rules.roll, rules.evaporate, rules.panda_recipients, rules.pass_pandas,
  rules.bamboo_challenge, rules.keep_blanks, rules.players_out

return rules
