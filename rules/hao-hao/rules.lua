-- Hao Hao (Jim Dratwa & Thibaut Quintens).
-- Each function is one step of the rulebook, so a variant can replace it.
-- The interpretations of unclear rules are listed in README.md.
--
-- Model: the field is a board; each cell holds at most one animal tile (a
-- hidden tile is face down, a public one face up) and maybe Hao Hao, a piece
-- facing a direction. Cells are numbered 1..width*height row by row in this
-- script (game.cells[i] is the zone, game.tile[i] the tile or nil,
-- game.index[zone] is i).
local rules = {}

-- Coordinates as text without a number-to-string conversion in a game
-- (written out up to 64; a wider or higher field converts the rest).
local NUMERALS = {
  "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15", "16", "17", "18",
  "19", "20", "21", "22", "23", "24", "25", "26", "27", "28", "29", "30", "31", "32", "33", "34",
  "35", "36", "37", "38", "39", "40", "41", "42", "43", "44", "45", "46", "47", "48", "49", "50",
  "51", "52", "53", "54", "55", "56", "57", "58", "59", "60", "61", "62", "63", "64"
}

-- The lists these rules return (placements, anywhere, a line of sight,
-- directions) are one table per game each, filled again on every call
-- instead of built anew: read a list before asking for the same kind
-- again ("Fast rules" in docs/writing-a-game.md). `refilled` drops what is
-- left of the previous fill past the n entries just written. Lists of
-- places hold the cells' zones, so that game:choose takes them as they are.
-- Which tiles lie face down the field itself says (`board:face_down_cells`
-- and the like read the tiles where they lie, in one call).
local function refilled(list, n)
  for k = #list, n + 1, -1 do list[k] = nil end
  return list
end

------------------------------------------------------------------------
-- The field

-- Builds the script's picture of the field from the zones, once the game
-- starts (after a scenario's `prepare`, which may arrange anything); the
-- rules keep it up to date from then on.
function rules.scan(game)
  local tile, kind, leopard, set_size = {}, {}, {}, {}
  local on_field, kinds, tiles = {}, {}, 0
  game.hh_cell = nil
  for i, cell in ipairs(game.cells) do
    for _, c in ipairs(cell:items()) do
      local what = c:kind()
      if what == "piece" then game.hh_cell = i
      elseif what == "tile" then
        local t = c:type()
        tile[i] = c
        kind[i] = t
        tiles = tiles + 1
        if not on_field[t] then
          on_field[t] = 0
          kinds[#kinds + 1] = t
          leopard[t] = c:attr("leopard") or false
          set_size[t] = c:attr("set")
        end
        on_field[t] = on_field[t] + 1
      end
    end
  end
  -- tile[i]: the tile on cell i; kind[i]: its type; leopard[type] and
  -- set_size[type]: that type's attributes; on_field[type]: how many of its
  -- tiles are on the field (kinds: those types), tiles_left: how many tiles
  -- in all (rules.tidy keeps them).
  game.tile, game.kind, game.leopard, game.set_size = tile, kind, leopard, set_size
  game.on_field, game.kinds, game.tiles_left = on_field, kinds, tiles
  game.revealed_text = {}
end

-- "a Red Panda", "an Otter"
function rules.a(title)
  if title:match("^[AEIOUaeiou]") then return "an " .. title end
  return "a " .. title
end

function rules.cell_name(game, i)
  local name = game.names[i]
  if not name then
    name = game.cells[i]:title()
    game.names[i] = name
  end
  return name
end

-- Cell i's coordinates (cells are numbered row by row).
function rules.xy(game, i)
  return (i - 1) % game.width + 1, (i - 1) // game.width + 1
end

-- "x,y type" for cell i, as the state's list of tiles revealed this turn
-- names it (made once per cell and type: rules.swap forgets the two it
-- changes).
function rules.revealed(game, i)
  local text = game.revealed_text[i]
  if not text then
    local x, y = rules.xy(game, i)
    text = (NUMERALS[x] or tostring(x)) .. "," .. (NUMERALS[y] or tostring(y)) .. " " .. game.kind[i]
    game.revealed_text[i] = text
  end
  return text
end

-- Face-down tiles a piece on cell i facing dir sees, nearest first: holes
-- and face-up tiles neither count nor block the view.
function rules.sight_from(game, i, dir)
  return (game.field:face_down_line(game.cells[i], dir, game.seen_list))
end

-- Every face-down tile but the one on cell `except` (nil: none).
function rules.face_down_cells(game, except)
  return (game.field:face_down_cells(except and game.cells[except], game.anywhere_list))
end

-- Every face-down tile except the one Hao Hao rests on ("anywhere"): the
-- board is asked directly, as in rules.face_down_cells (a flip anywhere asks
-- this at every extra tile).
function rules.anywhere(game)
  local hh = game.hh_cell
  return (game.field:face_down_cells(hh and game.cells[hh], game.anywhere_list))
end

-- Is any tile left to flip "anywhere"?
function rules.any_face_down(game)
  local _, n = game.field:face_down_cells(game.hh_cell and game.cells[game.hh_cell], game.anywhere_list)
  return n > 0
end

-- What Hao Hao sees now: his line, or every face-down tile once he "sees all".
function rules.line_of_sight(game)
  if game.state.sees_all or game.hh_cell == nil then return rules.anywhere(game) end
  local seen = rules.sight_from(game, game.hh_cell, game.hh:facing())
  if #seen == 0 then return rules.anywhere(game) end  -- cannot happen by the rules; never stall
  return seen
end

-- Legal places for Hao Hao: every face-down tile (other than `except`)
-- from which he would see at least `sight_needed` (2) face-down tiles in
-- some direction, row by row.
function rules.placements(game, except)
  return (game.field:face_down_seeing(game.sight_needed, except and game.cells[except], game.placement_list))
end

-- The tile on cell i is of type `name` after all (see rules.flip).
function rules.retype(game, i, t, name)
  local on_field, old = game.on_field, game.kind[i]
  if old then on_field[old] = on_field[old] - 1 end
  if not on_field[name] then
    on_field[name] = 0
    game.kinds[#game.kinds + 1] = name
    game.leopard[name] = t:attr("leopard") or false
    game.set_size[name] = t:attr("set")
  end
  on_field[name] = on_field[name] + 1
  game.kind[i] = name
  game.revealed_text[i] = nil
end

-- The directions Hao Hao may look from cell i: those where he sees at
-- least `sight_needed` (2) face-down tiles, clockwise from north.
function rules.directions(game, i)
  return (game.field:face_down_directions(game.cells[i], game.sight_needed, game.direction_list))
end

-- Asks for one of the cells (zones) in `list`; returns its index.
function rules.choose_cell(game, seat, prompt, list)
  return game.index[game:choose(seat, prompt, list)]
end

-- Puts Hao Hao on cell i facing dir (dir nil: he sees all).
function rules.put_hao_hao(game, i, dir)
  game.hh:move(game.cells[i])
  game.hh_cell = i
  if dir then
    game.hh:face_to(dir)
    game.state.sees_all = false
  else
    game.state.sees_all = true
  end
  local where = game.state.hao_hao  -- filled in place after the first time
  if not where then
    where = {}
    game.state.hao_hao = where
  end
  where.x, where.y = rules.xy(game, i)
  where.facing = dir or "everywhere"
end

-- Places Hao Hao by the rules: a face-down tile facing at least 2 face-down
-- tiles or, when there is no such place, any face-down tile from which he
-- sees all. Returns false when he cannot be placed on a face-down tile.
function rules.place_by_rules(game, seat, except, prompt)
  local places = rules.placements(game, except)
  if #places > 0 then
    local i = rules.choose_cell(game, seat, prompt, places)
    local dir = game:choose(seat, "Hao Hao looks", rules.directions(game, i))
    rules.put_hao_hao(game, i, dir)
    if game.talk then game:say("%s puts Hao Hao on %s, looking %s", game:player_name(seat), rules.cell_name(game, i), dir) end
    return true
  end
  local anywhere = rules.face_down_cells(game, except)
  if #anywhere == 0 then return false end
  local i = rules.choose_cell(game, seat, prompt .. " (he sees all the tiles now)", anywhere)
  rules.put_hao_hao(game, i, nil)
  if game.talk then game:say("%s puts Hao Hao on %s: no row shows 2 face-down tiles any more, he sees all the tiles",
           game:player_name(seat), rules.cell_name(game, i)) end
  return true
end

------------------------------------------------------------------------
-- Set-up

function rules.setup(game)
  game.placement_list, game.anywhere_list, game.seen_list, game.direction_list = {}, {}, {}, {}
  game.others_list = {}
  -- What happens in a turn (rules.turn empties it): the tiles flipped and
  -- won, a Red Panda hunt, a missed hunt.
  game.turn_record = {seat = nil, flipped = {}, won = {}, red_panda = false, missed = false}
  game.field = game:board("field")
  game.bag = game:zone("bag")
  game.box = game:zone("box")
  game.lost = game:zone("lost")
  game.effects = game:zone("effects")
  game.hh = game:components("hao_hao")[1]
  game.won, game.held = {}, {}
  for _, seat in ipairs(game:seats()) do
    game.won[seat] = game:zone("won", seat)
    game.held[seat] = game:zone("held", seat)
  end
  game.sight_needed = 2
  game.cells = game.field:cells()
  game.width, game.height = game.field:width(), game.field:height()
  game.index = {}  -- a zone has one handle: cells are keys
  game.names = {}  -- made when first needed (rules.cell_name)
  for i, cell in ipairs(game.cells) do game.index[cell] = i end
  game.talk = game:listening()
  rules.announce(game)
  rules.lay_out(game)
  rules.prepare_effects(game)
  game.state.sees_all = false
  game.state.round_limit_reached = false
  rules.public_summary(game)
end

-- "remove one triplet and one pair ... Shuffle the Animal tiles and place
-- them face down" on the field, row by row from the top of the bag.
function rules.lay_out(game)
  for _, name in ipairs(game.options.remove) do
    game.bag:move_matching(name, game.box)
  end
  local cells = #game.cells
  if game.bag:count() ~= cells then
    error(string.format("the field has %d places but %d animal tiles are in play (options.remove: %d types)",
                        cells, game.bag:count(), #game.options.remove))
  end
  game.bag:shuffle()
  for _, cell in ipairs(game.cells) do
    game.bag:top():move(cell)
  end
end

function rules.prepare_effects(game)
  if game.options.special_effects then
    game.effects:shuffle()
  else
    game.effects:move_all(game.box)
  end
end

function rules.announce(game)
  if not game.talk then return end
  local removed = {}
  for k, name in ipairs(game.options.remove) do removed[k] = game:components(name)[1]:title() end
  game:say("%s game: %d animal tiles face down on a %dx%d field%s; special effects %s",
           #removed > 0 and "Basic" or "Full", game.width * game.height, game.width, game.height,
           #removed > 0 and " (" .. table.concat(removed, " and ") .. " tiles left in the box)" or "",
           game.options.special_effects and "on" or "off")
end

-- Public per-player counts, in every view.
function rules.public_summary(game)
  local won, held = game.state.won_tiles, game.state.effect_tiles  -- filled in place after the set-up
  if not won then
    won, held = {}, {}
    game.state.won_tiles, game.state.effect_tiles = won, held
  end
  -- Seat by seat without game:seats(), a new list at every call: this runs
  -- at every turn that wins a tile.
  for seat = 0, game:player_count() - 1 do
    won[seat + 1] = game.won[seat]:count()
    held[seat + 1] = game.held[seat]:count()
  end
end

-- "Before the game begins, each player takes a secret look at a tile of
-- their choice on the field of play."
function rules.secret_looks(game)
  local seat = game:first_seat()
  local all = rules.face_down_cells(game, nil)
  for _ = 1, game:player_count() do
    local i = rules.choose_cell(game, seat, "Take a secret look at a tile", all)
    game.tile[i]:peek(seat)
    if game.talk then game:say("%s takes a secret look at %s", game:player_name(seat), rules.cell_name(game, i)) end
    seat = game:next_seat(seat)
  end
end

-- "The player on the right of the first player takes the Panda and places
-- it where they wish ... at least 2 tiles face down in the direction Hao Hao
-- is looking."
function rules.first_placement(game)
  local seat = game:previous_seat(game:first_seat())
  rules.place_by_rules(game, seat, nil, "Place Hao Hao on a tile")
end

------------------------------------------------------------------------
-- A turn

-- Flips the tile on cell i face up.
function rules.flip(game, seat, turn, i)
  local t = game.tile[i]
  t:reveal()
  -- What shows is what the picture says, except in a search bot's
  -- simulation, which deals the tiles its seat never saw anew in the
  -- middle of a game: the picture then learns the tile as it shows.
  local name = t:type()
  if name ~= game.kind[i] then rules.retype(game, i, t, name) end
  turn.flipped[#turn.flipped + 1] = i
  if game.talk then game:say("%s flips %s (%d) at %s", game:player_name(seat), rules.a(t:title()), t:attr("set"),
           rules.cell_name(game, i)) end
  local seen = game.state.revealed
  -- Made once per cell and type: read where it is kept before asking for it
  -- (a call a flip costs more than the rest of this line).
  seen[#seen + 1] = game.revealed_text[i] or rules.revealed(game, i)
  return t, i
end

function rules.flip_anywhere(game, seat, turn, prompt)
  local choices = rules.anywhere(game)
  if #choices == 0 then
    if game.talk then game:say("No face-down tile is left to flip") end
    return nil
  end
  return rules.flip(game, seat, turn, rules.choose_cell(game, seat, prompt, choices))
end

-- Step 1: "The player must flip over a first tile that is in front of Hao
-- Hao's sight line ... The tile that Hao Hao stands cannot be turned over."
function rules.reveal(game, seat, turn)
  local _, first = rules.flip(game, seat, turn,
                              rules.choose_cell(game, seat, "Flip a tile in Hao Hao's line of sight",
                                                rules.line_of_sight(game)))
  if game.kind[first] == "red_panda" then
    return rules.red_panda_hunt(game, seat, turn)
  end
  local more = rules.extra_flips(game, game.kind[first])
  for k = 1, more do
    rules.flip_anywhere(game, seat, turn, rules.flip_another_prompt(k, more))
  end
  if game.options.special_effects then rules.use_extra_reveal(game, seat, turn) end
end

-- "Flip another tile anywhere (1 of 2)": the usual prompts are written once,
-- when the rules load, not on every turn.
local FLIP_ANOTHER = {}
for more = 1, 2 do
  FLIP_ANOTHER[more] = {}
  for k = 1, more do FLIP_ANOTHER[more][k] = string.format("Flip another tile anywhere (%d of %d)", k, more) end
end

function rules.flip_another_prompt(k, more)
  local prompt = FLIP_ANOTHER[more] and FLIP_ANOTHER[more][k]
  return prompt or string.format("Flip another tile anywhere (%d of %d)", k, more)
end

-- How many more tiles a first tile of this type asks for: a 2 one, a 3
-- two, a Snow Leopard one.
function rules.extra_flips(game, kind)
  if game.leopard[kind] then return 1 end
  local set = game.set_size[kind]
  if set == 2 then return 1 end
  if set == 3 then return 2 end
  return 0
end

-- A Red Panda first: "continue searching for another Red Panda or stop here".
function rules.red_panda_hunt(game, seat, turn)
  turn.red_panda = true
  while true do
    if not rules.any_face_down(game) then
      if game.talk then game:say("No face-down tile is left: %s stops", game:player_name(seat)) end
      return
    end
    local go_on = game:choose(seat, "Push your luck: flip another tile hoping for a Red Panda?", {false, true})
    if not go_on then
      if game.talk then game:say("%s stops with %d Red Panda%s", game:player_name(seat), #turn.flipped, #turn.flipped > 1 and "s" or "") end
      return
    end
    local _, i = rules.flip_anywhere(game, seat, turn, "Flip a tile, hoping for a Red Panda")
    if game.kind[i] ~= "red_panda" then
      turn.missed = true
      if game.talk then game:say("Not a Red Panda: %s loses the tiles of this turn", game:player_name(seat)) end
      return
    end
  end
end

------------------------------------------------------------------------
-- Special effects (advanced game)

function rules.holds(game, seat, effect)
  if not game.options.special_effects or game.held[seat]:empty() then return nil end
  for _, c in ipairs(game.held[seat]:items()) do
    if c:type() == effect then return c end
  end
  return nil
end

-- "Once a Special effect tile is played, it is placed face down on the
-- bottom of the pile of tiles."
function rules.spend(game, seat, tile)
  tile:reveal()  -- shown as it is played: everybody learns which effect it is
  if game.talk then game:say("%s plays the %s", game:player_name(seat), tile:title()) end
  tile:move(game.effects, "bottom")
  rules.public_summary(game)
end

-- "I can reveal an extra tile as part of my turn (in step 1)." The
-- rulebook sets no limit per turn: a player holding two may play both, one
-- after the other.
function rules.use_extra_reveal(game, seat, turn)
  while true do
    local tile = rules.holds(game, seat, "extra_reveal")
    if not tile or not rules.any_face_down(game) then return end
    if not game:choose(seat, "Play Extra reveal: flip one more tile?", {false, true}) then return end
    rules.spend(game, seat, tile)
    rules.flip_anywhere(game, seat, turn, "Flip an extra tile anywhere")
  end
end

-- "I can take a secret look at a face down tile from the field of play."
-- Offered at the start of the holder's own turn.
function rules.use_secret_look(game, seat)
  local tile = rules.holds(game, seat, "secret_look")
  if not tile then return end
  local choices = rules.anywhere(game)
  if #choices == 0 then return end
  if not game:choose(seat, "Play Secret look: look at a face-down tile?", {false, true}) then return end
  rules.spend(game, seat, tile)
  local i = rules.choose_cell(game, seat, "Take a secret look at a tile", choices)
  game.tile[i]:peek(seat)
  if game.talk then game:say("%s takes a secret look at %s", game:player_name(seat), rules.cell_name(game, i)) end
end

-- "At the beginning of my turn, or at the beginning of another player's
-- turn, I can move Hao Hao and place him somewhere else (respecting the
-- rules)." Asked of every holder, from the player whose turn it is.
function rules.use_move_hao_hao(game, turn_seat)
  local seat = turn_seat
  for _ = 1, game:player_count() do
    local tile = rules.holds(game, seat, "move_hao_hao")
    if tile then
      local can = #rules.placements(game, game.hh_cell) > 0 or rules.any_face_down(game)
      local prompt = seat == turn_seat and "Play Move Hao Hao at the start of your turn?"
                     or string.format("Play Move Hao Hao at the start of %s's turn?", game:player_name(turn_seat))
      if can and game:choose(seat, prompt, {false, true}) then
        rules.spend(game, seat, tile)
        rules.place_by_rules(game, seat, game.hh_cell, "Move Hao Hao to a tile")
      end
    end
    seat = game:next_seat(seat)
  end
end

-- The special effects offered at the start of a turn (advanced game: the
-- turn asks only then).
function rules.start_of_turn(game, seat)
  rules.use_secret_look(game, seat)
  rules.use_move_hao_hao(game, seat)
end

-- At the end of step 4: "he/she has not won any tile during their turn AND
-- another player has at least 3 more tiles than he/she does." (Advanced
-- game: the turn asks only then.)
function rules.draw_effect(game, seat, turn)
  if #turn.won > 0 then return end
  local mine = game.won[seat]:count()
  local behind = false
  for _, other in ipairs(game:seats()) do
    if other ~= seat and game.won[other]:count() >= mine + game.options.effect_gap then behind = true end
  end
  if not behind then return end
  local limit = game.options.effect_limit[tostring(game:player_count())]
  if game.held[seat]:count() >= limit then return end
  if game.effects:empty() then return end
  game.effects:top():move(game.held[seat])
  if game.talk then game:say("%s is behind and draws a special effect tile", game:player_name(seat)) end
  rules.public_summary(game)
end

------------------------------------------------------------------------
-- Step 2: tiles face up

-- "Among the tiles face up, there is a complete set of the same animal, the
-- player wins the tiles." Pairs of a 2, pairs or triplets of a 3 ("a pair
-- found in the search for a triplet counts"); Red Pandas only by the hunt;
-- Snow Leopards are never won.
function rules.collect(game, seat, turn)
  local won, flipped, tile, kind = turn.won, turn.flipped, game.tile, game.kind
  if turn.red_panda then
    for k = 1, #flipped do won[#won + 1] = tile[flipped[k]] end
    if game.talk then game:say("Hao Hao! %s wins %d Red Panda%s", game:player_name(seat), #won, #won > 1 and "s" or "") end
    return
  end
  -- Each animal flipped, in the order it first came up, with its tiles in
  -- the order they were flipped (a turn flips a few tiles: loops over them
  -- cost less than a table per animal; the later tiles are counted only
  -- from an animal's first one).
  for k = 1, #flipped do
    local name = kind[flipped[k]]
    local first = true  -- the animal's first tile this turn? (an earlier one stops the walk)
    for j = 1, k - 1 do
      if kind[flipped[j]] == name then
        first = false
        break
      end
    end
    if first then
      local count = 1
      for j = k + 1, #flipped do
        if kind[flipped[j]] == name then count = count + 1 end
      end
      -- A set is two tiles or three: a lone tile asks nothing more.
      if count >= 2 and rules.winnable(game, name) then
        for j = k, #flipped do
          if kind[flipped[j]] == name then won[#won + 1] = tile[flipped[j]] end
        end
        if game.talk then game:say("Hao Hao! %s wins a %s of %s tiles", game:player_name(seat),
                 count == 3 and "triplet" or "pair", tile[flipped[k]]:title()) end
      end
    end
  end
end

-- May two or more face-up tiles of this type be won (pairs of a 2, pairs
-- or triplets of a 3; never Snow Leopards)?
function rules.winnable(game, kind)
  if game.leopard[kind] then return false end
  local set = game.set_size[kind]
  return set == 2 or set == 3
end

-- "If at the end of the turn, only one Snow Leopard tile is visible, the
-- player exchanges the Snow Leopard with another tile that is face up. If 2
-- tiles with a Snow Leopard are visible ... the player loses one tile (of
-- their choice) that he/she has previously won."
function rules.snow_leopards(game, seat, turn)
  local flipped, leopard, kind = turn.flipped, game.leopard, game.kind
  local leopards, l = 0, nil
  for k = 1, #flipped do
    if leopard[kind[flipped[k]]] then
      leopards = leopards + 1
      l = l or flipped[k]
    end
  end
  if leopards == 1 then
    local others, n = game.others_list, 0
    for k = 1, #flipped do
      if flipped[k] ~= l then
        n = n + 1
        others[n] = game.cells[flipped[k]]
      end
    end
    if n == 0 then return end
    local o = rules.choose_cell(game, seat, "The Snow Leopard swaps places with", refilled(others, n))
    rules.swap(game, l, o)
    if game.talk then game:say("The Snow Leopard pounces: %s escapes to %s and the Snow Leopard takes %s",
             game.tile[l]:title(), rules.cell_name(game, l), rules.cell_name(game, o)) end
  elseif leopards >= 2 then
    local pile = game.won[seat]
    if pile:empty() then
      if game.talk then game:say("Two Snow Leopards! %s has no tile to lose", game:player_name(seat)) end
      return
    end
    local tile = game:choose(seat, "Two Snow Leopards: lose one of your tiles", pile:items())
    tile:move(game.lost)
    if game.talk then game:say("Two Snow Leopards! %s loses %s tile", game:player_name(seat), rules.a(tile:title())) end
    rules.public_summary(game)
  end
end

-- Two tiles swap places (the turn's record follows the cells).
function rules.swap(game, a, b)
  local ta, tb = game.tile[a], game.tile[b]
  ta:move(game.cells[b])
  tb:move(game.cells[a])
  game.tile[a], game.tile[b] = tb, ta
  game.kind[a], game.kind[b] = game.kind[b], game.kind[a]
  game.revealed_text[a], game.revealed_text[b] = nil, nil
  local seen = game.state.revealed
  seen[#seen + 1] = rules.revealed(game, a)
  seen[#seen + 1] = rules.revealed(game, b)
end

------------------------------------------------------------------------
-- Step 3: moving Hao Hao, while the tiles are still face up

-- Returns false when Hao Hao can no longer be moved onto a face-down tile.
function rules.move_hao_hao(game, seat, turn)
  return rules.place_by_rules(game, seat, game.hh_cell, "Move Hao Hao to a tile")
end

------------------------------------------------------------------------
-- Step 4: tiles face down

function rules.tidy(game, seat, turn)
  local won, flipped = turn.won, turn.flipped
  local any_won = #won > 0  -- most turns win nothing: no walk of the list then
  for k = 1, #flipped do
    local i = flipped[k]
    local t = game.tile[i]
    if any_won and rules.contains(won, t) then
      t:move(game.won[seat])
      local name = game.kind[i]
      game.on_field[name] = game.on_field[name] - 1
      game.tiles_left = game.tiles_left - 1
      game.tile[i] = nil
      game.kind[i] = nil
    else
      t:hide()
    end
  end
  if any_won then rules.public_summary(game) end
end

-- Is x in the list? (A turn wins a few tiles: a walk costs less than a set.)
function rules.contains(list, x)
  for k = 1, #list do
    if list[k] == x then return true end
  end
  return false
end

-- One whole turn; returns true when the game is over.
function rules.turn(game, seat)
  -- The state's list of the tiles revealed this turn, made with room for a
  -- turn's few tiles: filling room costs less than growing an empty table
  -- ("Fast rules").
  game.state.revealed = {nil, nil, nil, nil}
  -- The special effects' steps are asked for in the advanced game only
  -- (four calls a turn saved in the basic game).
  local effects = game.options.special_effects
  if effects then rules.start_of_turn(game, seat) end
  -- The turn's record is the game's, emptied at every turn: clearing a few
  -- entries costs less than three new tables a turn ("Fast rules").
  local turn = game.turn_record
  turn.seat, turn.red_panda, turn.missed = seat, false, false
  refilled(turn.flipped, 0)
  refilled(turn.won, 0)
  rules.reveal(game, seat, turn)
  if not turn.missed then
    rules.collect(game, seat, turn)
    rules.snow_leopards(game, seat, turn)
  end
  local moved = rules.move_hao_hao(game, seat, turn)
  rules.tidy(game, seat, turn)
  if not moved then  -- the game is over: no effect is drawn
    if game.talk then game:say("Hao Hao can no longer be moved onto a face-down tile: %s wins Hao Hao. Hao Hao!",
             game:player_name(seat)) end
    game.state.hao_hao_winner = seat
    game.end_reason = "hao-hao"
    return true
  end
  if effects then rules.draw_effect(game, seat, turn) end
  if rules.dead_field(game) then
    -- Nobody could not move Hao Hao: his 3 points go to nobody (README, 10).
    if game.talk then game:say("No tile left on the field can be won any more and no turn can flip all the "
                               .. "face-down tiles: the game ends and nobody wins Hao Hao") end
    game.end_reason = "dead-field"
    return true
  end
  return false
end

-- Extra reveal tiles one player could play in a single future turn: those
-- they hold, or, for a player who can draw (one who wins nothing draws when
-- another player has `effect_gap` more tiles), as many as they may hold.
-- In a dead field nobody wins tiles any more, but two Snow Leopards still
-- cost tiles, so a player may yet fall behind.
function rules.extra_reveals_possible(game)
  if not game.options.special_effects then return 0 end
  local limit = game.options.effect_limit[tostring(game:player_count())]
  local total = #game:components("extra_reveal")
  local leopards = 0
  for _, t in pairs(game.tile) do
    if t:attr("leopard") then leopards = leopards + 1 end
  end
  local best = 0
  for _, seat in ipairs(game:seats()) do
    local held = 0
    for _, c in ipairs(game.held[seat]:items()) do
      if c:type() == "extra_reveal" then held = held + 1 end
    end
    local fewest = leopards >= 2 and 0 or game.won[seat]:count()
    for _, other in ipairs(game:seats()) do
      if other ~= seat and game.won[other]:count() >= fewest + game.options.effect_gap then
        held = math.max(held, math.min(limit, total))
      end
    end
    best = math.max(best, held)
  end
  return best
end

-- A dead field: no sequence of legal turns can end the game by the
-- rulebook. The rulebook's end needs one turn to flip every face-down tile
-- besides Hao Hao's (flipped tiles go back face down; only won tiles leave
-- the field). When no tile can ever be won again (no Red Panda, no two
-- tiles of one animal: only Snow Leopards and lone tiles) the count of
-- face-down tiles never falls, and one turn flips at most: a first tile, the
-- extra flips it asks for (two for a 3, one for a 2 or a Snow Leopard), and
-- the Extra reveal tiles one player can play in that turn.
function rules.dead_field(game)
  -- The tiles' types are read from the tiles, not from the script's picture
  -- of the field (game.kind, game.on_field): a search bot's simulation deals
  -- the tiles its seat never saw anew, and the picture learns a tile's type
  -- only as it shows (rules.flip). Most turns stop at the first Red Panda or
  -- the first two tiles of one animal, a few tiles into the walk.
  local count, first = {}, 2  -- first: a Snow Leopard and the tile it asks for
  for _, t in pairs(game.tile) do
    local name = t:type()
    if name == "red_panda" then return false end  -- a Red Panda left can still be won
    if not t:attr("leopard") then
      if count[name] then return false end  -- two tiles of one animal
      count[name] = true
      if t:attr("set") == 3 then first = 3 end
    end
  end
  -- the face-down tiles besides Hao Hao's
  local others = game.tiles_left - (game.hh_cell and game.kind[game.hh_cell] and 1 or 0)
  return others > first + rules.extra_reveals_possible(game)
end

------------------------------------------------------------------------
-- Counting points

function rules.red_panda_points(game, n)
  if n <= 0 then return 0 end
  if n >= 3 then n = 3 end
  return game.options.red_panda_points[tostring(n)]
end

-- Returns seat -> {tiles=, red_pandas=, effects=, hao_hao=, total=}
function rules.count_points(game)
  local out = {}
  for _, seat in ipairs(game:seats()) do
    local tiles, pandas = 0, 0
    for _, c in ipairs(game.won[seat]:items()) do
      if c:type() == "red_panda" then pandas = pandas + 1 else tiles = tiles + 1 end
    end
    local effects = game.options.special_effects and game.held[seat]:count() or 0
    local hh = game.state.hao_hao_winner == seat and game.options.hao_hao_points or 0
    local p = {tiles = tiles, red_pandas = pandas, red_panda_points = rules.red_panda_points(game, pandas),
               effects = effects, hao_hao = hh}
    p.total = p.tiles + p.red_panda_points + p.effects + p.hao_hao
    out[seat] = p
  end
  return out
end

function rules.finish(game)
  local points = rules.count_points(game)
  local best, winners = nil, {}
  local details = {}
  for _, seat in ipairs(game:seats()) do
    local p = points[seat]
    if p.total ~= 0 then game:add_score(seat, p.total) end
    if game.talk then game:say("%s: %d tile%s, %d Red Panda%s (%+d), %d special effect%s, Hao Hao %+d = %d points",
             game:player_name(seat), p.tiles, p.tiles == 1 and "" or "s", p.red_pandas,
             p.red_pandas == 1 and "" or "s", p.red_panda_points, p.effects, p.effects == 1 and "" or "s",
             p.hao_hao, p.total) end
    details[seat + 1] = p
    if best == nil or p.total > best then best, winners = p.total, {seat}
    elseif p.total == best then winners[#winners + 1] = seat end
  end
  local names = {}
  for k, s in ipairs(winners) do names[k] = game:player_name(s) end
  local summary
  if #winners > 1 then
    summary = string.format("tie between %s with %d points", table.concat(names, " and "), best)
  else
    summary = string.format("%s wins with %d points", names[1], best)
  end
  if game.talk then game:say("Hao Hao!") end
  game:finish{winners = winners, summary = summary, reason = game.end_reason,
              details = {points = details, tie = #winners > 1}}
end

function rules.play(game)
  rules.scan(game)  -- after a scenario's `prepare`
  rules.secret_looks(game)
  rules.first_placement(game)
  local seat = game:first_seat()
  while true do
    game:begin_turn(seat)
    if rules.turn(game, seat) then break end
    local limit = game.options.max_rounds
    if limit > 0 and game:round() >= limit and game:next_seat(seat) == game:first_seat() then
      game.state.round_limit_reached = true
      game.end_reason = "round-limit"
      if game.talk then game:say("The round limit (%d) is reached: the game stops and nobody wins Hao Hao", limit) end
      break
    end
    seat = game:next_seat(seat)
  end
  rules.finish(game)
end

-- The game's estimate of a seat's share of the win, for bots (greedy, cut-off
-- rollouts). "Obtain the most points": the seat's points as they would be
-- counted now (tiles, Red Pandas as the rulebook scores them -- "Beware of
-- the Red Panda tile" -- unused effects, Hao Hao) against the best other
-- player's, squashed into (0, 1): level is 1/2, three points ahead about 3/4.
function rules.evaluate(game, seat)
  local points = rules.count_points(game)
  local mine, best = points[seat].total, nil
  for s, p in pairs(points) do
    if s ~= seat and (best == nil or p.total > best) then best = p.total end
  end
  return 1 / (1 + math.exp(-(mine - (best or mine)) / 3))
end


-- How the game stands, for every seat alike (the terminal and the web
-- table show it): where Hao Hao stands and looks, each player's won tiles
-- and special effects (counts: nobody's secret tiles).
function rules.describe(game, seat)
  local lines = {}
  if not game.won then return lines end
  local hh = game.state.hao_hao
  if hh then
    lines[#lines + 1] = {label = "Hao Hao", value = string.format("at (%d,%d), %s", hh.x, hh.y,
      hh.facing == "everywhere" and "sees the whole field" or "looking " .. hh.facing)}
  end
  for _, s in ipairs(game:seats()) do
    local name = game:player_name(s)
    lines[#lines + 1] = {label = s == seat and name .. " (you)" or name,
                         value = string.format("%d tiles won, %d special effects", game.won[s]:count(), game.held[s]:count())}
  end
  return lines
end

-- A sampling hint for search bots (docs/lua-api.md, rules.deal_unseen).
-- The tiles left in the box are the types options.remove names (the game
-- says so as it starts), but the runtime only knows that nobody has seen
-- them: its samples would lay those types on the field and keep others in
-- the box. `unseen` arrives with identities drawn at random; each animal
-- tile in the box whose type was not removed trades identities with an
-- unseen tile of a removed type elsewhere.
function rules.deal_unseen(game, seat, unseen)
  local removed = {}
  for _, name in ipairs(game.options.remove) do removed[name] = true end
  local dealt, wrong_in_box, wrong_outside = {}, {}, {}
  for k, c in ipairs(unseen) do
    dealt[k] = c
    if c:attr("animal") ~= nil then
      local boxed = c:zone() == game.box
      if boxed and not removed[c:type()] then
        wrong_in_box[#wrong_in_box + 1] = k
      elseif not boxed and removed[c:type()] then
        wrong_outside[#wrong_outside + 1] = k
      end
    end
  end
  for i = 1, math.min(#wrong_in_box, #wrong_outside) do
    local a, b = wrong_in_box[i], wrong_outside[i]
    dealt[a], dealt[b] = unseen[b], unseen[a]
  end
  return dealt
end

return rules
