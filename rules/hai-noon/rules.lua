-- Hai Noon (René Holzer & Christian Opperer).
-- Each function is one step of the rulebook, so a variant can replace it.
-- Quotes are from the German rulebook, which is authoritative.
local rules = {}

-- The four sides of the board, clockwise from the top.
rules.SIDES = {"top", "right", "bottom", "left"}
-- (Loops run on every decision walk SIDES by index: `for _, x in ipairs(t)`
-- calls into C on every step, see "Fast rules" in docs/writing-a-game.md.)
local SIDES = rules.SIDES
-- The divers, in the order they take their places (clockwise from the top
-- left of the centre square) and the order seats get them.
rules.DIVERS = {"diver_pink", "diver_blue", "diver_green", "diver_black"}
local IS_DIVER = {}
for _, t in ipairs(rules.DIVERS) do IS_DIVER[t] = true end
-- The side a diver's place looks at in each direction (north of the
-- centre square is the top side).
local OUTWARD_TO_SIDE = {north = "top", east = "right", south = "bottom", west = "left"}
local DIRECTIONS = {"north", "east", "south", "west"}

---------------------------------------------------------------------------
-- Small helpers
---------------------------------------------------------------------------

-- "(x,y)" for a cell, made the first time a game names it (only labels,
-- narration and the camouflage's public note read it).
local function where(game, cell)
  local name = game.cell_name[cell]
  if not name then
    local _, x, y = cell:cell()
    name = string.format("(%d,%d)", x, y)
    game.cell_name[cell] = name
  end
  return name
end

local function diver_name(diver)
  return diver:title()
end

-- An option's label is read only by an agent that shows it, a log or a
-- sink, never in a plain simulate: each kind of option builds its label
-- when (and only when) it is read, from the option's own fields.
local function lazy_label(build)
  return {__index = function(option, key)
    if key == "label" then return build(option) end
  end}
end

local PLAY_LABEL = lazy_label(function(p) return string.format("%s to the %s side", p.card:title(), p.side) end)
local MOVE_LABEL = lazy_label(function(m)
  if m.other then return string.format("%s swaps places with the %s", diver_name(m.diver), diver_name(m.other)) end
  return string.format("%s swims to the free place %s", diver_name(m.diver), where(m.game, m.to))
end)
local CAGE_LABEL = lazy_label(function(t) return "the cage on the " .. diver_name(t.diver) end)
local SWAP_LABEL = lazy_label(function(s)
  local sa, sb = rules.shark_at(s.game, s.a), rules.shark_at(s.game, s.b)
  return string.format("swap the %s shark at %s with the %s shark at %s",
                       sa:face(), where(s.game, s.a), sb:face(), where(s.game, s.b))
end)
local TURN_LABEL = lazy_label(function(o)
  return string.format("the %s shark at %s", rules.shark_at(o.game, o.cell):face(), where(o.game, o.cell))
end)
local CAMOUFLAGE_LABEL = lazy_label(function(o) return "camouflage the " .. diver_name(o.diver) end)
local RETURN_LABEL = lazy_label(function(o) return "return to " .. where(o.game, o.cell) end)
local HARPOON_LABEL = lazy_label(function(o)
  return string.format("%s as a harpoon for the %s", o.card:title(), diver_name(o.diver))
end)
local HARPOON_PROMPT = {}
for _, side in ipairs(rules.SIDES) do
  HARPOON_PROMPT[side] = string.format("A hungry shark attacks from the %s side: play a harpoon?", side)
end

local function seat_name(game, seat)
  return game:player_name(seat)
end

-- A card's or a diver's colour. Read from the component every time, not
-- kept by handle: a search bot's simulation deals the cards its seat never
-- saw anew in the middle of a game (their identities change, and with
-- them their colours), so a colour kept from before would lie.
function rules.colour_of(game, c)
  return c:attr("colour")
end

-- The cell a diver is on, or nil when it is off the board (camouflaged).
function rules.diver_cell(game, diver)
  local z = diver:zone()
  if z:cell() then return z end
  return nil
end

-- The diver on a cell, or nil.
function rules.diver_at(game, cell)
  for i = 1, cell:count() do
    local c = cell:get(i)
    if IS_DIVER[c:type()] then return c end
  end
  return nil
end

function rules.shark_at(game, cell)
  return cell:find("shark")
end

function rules.is_dummy(game, diver)
  return game.state.dummies[rules.colour_of(game, diver)] == true
end

function rules.owner_of(game, diver)
  return game.state.owners[rules.colour_of(game, diver)]
end

-- A seat's divers still in the game (not dummies), on or off the board.
-- (rules.owner_of and rules.is_dummy, with each diver's colour read once.)
function rules.divers_of(game, seat)
  local list, owners, dummies, divers = {}, game.state.owners, game.state.dummies, game.divers
  for k = 1, #divers do
    local d = divers[k]
    local colour = rules.colour_of(game, d)
    if owners[colour] == seat and dummies[colour] ~= true then list[#list + 1] = d end
  end
  return list
end

-- A diver moves, and the cage standing on it goes with it.
function rules.move_diver(game, diver, dest)
  diver:move(dest)
  if game.caged == diver then game.cage:move(dest) end
end

-- The free places of the centre square (left by camouflaged divers).
function rules.free_places(game)
  local free = {}
  for _, cell in ipairs(game.centre) do
    if not rules.diver_at(game, cell) then free[#free + 1] = cell end
  end
  return free
end

---------------------------------------------------------------------------
-- Setup
---------------------------------------------------------------------------

-- Which ring cells are "the two sharks of a side": the cells of that edge
-- that border the centre square, each with the centre cell it borders.
-- Follows from the board's geometry: one step from a diver's place onto
-- the ring, towards that side.
function rules.find_geometry(game)
  local sea = game.sea
  game.cell_name = {}
  local ring = sea:path("ring")
  game.ring = ring
  local on_ring = {}  -- cell -> its place along the ring
  for k = 1, #ring do on_ring[ring[k]] = k end
  -- The centre clockwise from its top left, as the divers take their
  -- places; its top left is the first cell off the ring, row by row.
  local cells, cx, cy = sea:cells(), nil, nil
  for k = 1, #cells do
    if not on_ring[cells[k]] then
      local _
      _, cx, cy = cells[k]:cell()
      break
    end
  end
  local centre = {sea:cell(cx, cy), sea:cell(cx + 1, cy), sea:cell(cx + 1, cy + 1), sea:cell(cx, cy + 1)}
  game.centre = centre
  -- Each side's pairs in the ring's (clockwise) order; `beside_centre`:
  -- the ring cells next to a diver's place.
  local side_sharks, beside_centre = {top = {}, right = {}, bottom = {}, left = {}}, {}
  for i = 1, #centre do
    for k = 1, #DIRECTIONS do
      local dir = DIRECTIONS[k]
      local outer = sea:step(centre[i], dir)
      if outer and on_ring[outer] then
        local list = side_sharks[OUTWARD_TO_SIDE[dir]]
        local at = #list + 1
        while at > 1 and on_ring[list[at - 1].shark] > on_ring[outer] do
          list[at] = list[at - 1]
          at = at - 1
        end
        list[at] = {shark = outer, diver = centre[i]}
        beside_centre[outer] = true
      end
    end
  end
  game.side_sharks, game.beside_centre = side_sharks, beside_centre
end

-- "Ihr wählt je 1 Taucher": seat by seat. With 2 players each has two
-- divers, diagonal to each other; with 3 the black diver is a dummy.
function rules.assign_divers(game)
  local n = game:player_count()
  game.state.owners = {}
  game.state.dummies = {}
  for i, d in ipairs(game.divers) do
    local colour = rules.colour_of(game, d)
    if n == 4 then
      game.state.owners[colour] = i - 1
    elseif n == 3 then
      if i <= 3 then game.state.owners[colour] = i - 1 else game.state.dummies[colour] = true end
    else
      -- places 1 and 3, 2 and 4 of the centre are diagonal
      game.state.owners[colour] = (i - 1) % 2
    end
  end
end

-- "Danach legt ihr alle Taucherplättchen (mit der Seite 'gesund') als
-- Quadrat in die Mitte ... Angrenzend an jeden Taucher legt ihr je 1
-- Haiplättchen (mit der Seite 'satt'), ebenso diagonal zu jedem Taucher
-- (mit der Seite 'hungrig')."
function rules.place_tiles(game)
  for i, d in ipairs(game.divers) do
    d:move(game.centre[i])
    d:set_face("healthy")
  end
  local sharks = game:components("shark")
  local start = game.options.sharks_start
  -- The divers fill the centre square: the sharks next to a diver are
  -- those bordering it.
  for i, cell in ipairs(game.ring) do
    local shark = sharks[i]
    local face = game.beside_centre[cell] and "full" or "hungry"
    if start == "hungry" or start == "full" then face = start end
    shark:move(cell)
    shark:set_face(face)
  end
end

-- "Mischt alle Aktionskarten ... Nun zieht ihr alle je 3 Aktionskarten."
function rules.deal(game)
  game.deck:shuffle()
  for _, seat in ipairs(game:seats()) do
    for _ = 1, 3 do game.deck:draw(game.hands[seat], game.discard) end
  end
end

function rules.setup(game)
  -- Narration nobody reads costs its arguments: `if game.talk then` skips them.
  game.talk = game:listening()
  game.sea = game:board("sea")
  game.box = game:zone("box")
  game.deck = game:zone("deck")
  game.discard = game:zone("discard")
  game.camouflaged = game:zone("camouflaged")
  game.hands = {}
  for _, seat in ipairs(game:seats()) do game.hands[seat] = game:zone("hand", seat) end
  game.sides, game.harpoons = {}, {}
  for _, side in ipairs(rules.SIDES) do
    game.sides[side] = game:zone("side_" .. side)
    game.harpoons[side] = game:zone("harpoons_" .. side)
  end
  game.types_offered, game.plays_asked = {}, 0
  game.divers = {}
  for _, t in ipairs(rules.DIVERS) do
    game.divers[#game.divers + 1] = game:components(t)[1]
  end
  game.cage = game:components("cage")[1]
  game.caged = nil
  game.state.camouflaged = {}
  game.state.out = {}
  rules.find_geometry(game)
  rules.assign_divers(game)
  rules.place_tiles(game)
  rules.deal(game)
  rules.update_state(game)
end

-- Reads what lies at the sides, after every change the rules make there
-- (rules.play_card, rules.shark_attack, the scenario helpers), into
-- `game.out` (see rules.colours_out) and the public summary for every
-- view: each side's colour and the cage's. The tables are filled again in
-- place, not built anew. `only`: the one side that changed, when the
-- caller knows it (the others are as the last call read them).
function rules.update_state(game, only)
  local out, sides, summary = game.out, game.sides, game.state.side_colours
  if not out then
    out = {of_side = {}, cards_at = {}}
    game.out = out
  end
  if not summary then
    summary = {}
    game.state.side_colours = summary
  end
  local of_side, cards_at = out.of_side, out.cards_at
  for k = 1, #SIDES do
    local side = SIDES[k]
    if not only or side == only then
      local n = sides[side]:count()
      local colour = n > 0 and rules.side_colour(game, side, n)
      of_side[side] = colour or false
      cards_at[side] = n
      summary[side] = colour or "none"
    end
  end
  game.state.cage = game.caged and rules.colour_of(game, game.caged) or "none"
end

---------------------------------------------------------------------------
-- Placing a card
---------------------------------------------------------------------------

-- The colour lying on a side: that of its cards other than jokers (all the
-- same), or nil for an empty side or one holding only jokers. (`count`, the
-- number of cards there, when the caller knows it.)
function rules.side_colour(game, side, count)
  local cards = game.sides[side]
  for i = 1, count or cards:count() do
    local colour = rules.colour_of(game, cards:get(i))
    if colour ~= "joker" then return colour end
  end
  return nil
end

-- The colour of every side (false for none) and how many cards lie at
-- every side, as rules.update_state last read them.
function rules.colours_out(game)
  return game.out
end

-- May a card of this colour lie at this side (ignoring the first-round
-- rule and the number of cards)?
-- "An jede der 4 Seiten des Spielfeldes muss eine andere Kartenfarbe
-- gelegt werden." "Willst du eine Karte spielen, deren Farbe bereits auf
-- einer der 4 Seiten ausliegt, musst du diese Karte an diese Seite anlegen."
-- Joker: "Kann an eine beliebige Seite/Farbe angelegt werden. Liegt der
-- Joker als einzige Karte an einer Seite, kann man dort nach wie vor jede
-- Farbe anlegen." `out` is rules.colours_out(game), computed if not given.
function rules.colour_fits(game, colour, side, out)
  if colour == "joker" then return true end
  out = out or rules.colours_out(game)
  local of_side = out.of_side
  local here = of_side[side]
  if here then return here == colour end
  -- not while this colour lies at another side
  return of_side.top ~= colour and of_side.right ~= colour and of_side.bottom ~= colour and of_side.left ~= colour
end

function rules.may_place(game, card, side, out)
  return rules.may_place_colour(game, rules.colour_of(game, card), side, out)
end

-- The same for a card of this colour (its colour read once for all sides).
function rules.may_place_colour(game, colour, side, out)
  out = out or rules.colours_out(game)
  -- "Es dürfen nie mehr als 3 Karten an einer Seite liegen."
  if out.cards_at[side] >= 3 then return false end
  return rules.colour_fits(game, colour, side, out)
end

-- Every legal (card, side) play of a hand; identical cards are offered once.
function rules.legal_plays(game, seat)
  local plays = {}
  local out = rules.colours_out(game)
  local hand = game.hands[seat]
  -- seen[type] == asked: a card of that type was offered this time (one
  -- table for the game, never cleared: `asked` counts the calls)
  local seen, asked = game.types_offered, game.plays_asked + 1
  game.plays_asked = asked
  for i = 1, hand:count() do
    local card = hand:get(i)
    local t = card:type()
    if seen[t] ~= asked then
      seen[t] = asked
      local colour = rules.colour_of(game, card)
      for k = 1, #SIDES do
        local side = SIDES[k]
        if rules.may_place_colour(game, colour, side, out) then
          plays[#plays + 1] = setmetatable({card = card, side = side}, PLAY_LABEL)
        end
      end
    end
  end
  -- "In der ersten Runde müsst ihr, sofern es die Kartenhand erlaubt,
  -- jeweils an eine leere Seite anlegen."
  if game:first_round() then
    local empty, cards_at = {}, out.cards_at
    for k = 1, #plays do
      local p = plays[k]
      if cards_at[p.side] == 0 then empty[#empty + 1] = p end
    end
    if #empty > 0 then plays = empty end
  end
  return plays
end

-- Returns the card and side played, or nil when no card in the hand may be
-- placed (cannot happen under these rules, but a variant might allow it).
function rules.choose_play(game, seat)
  local plays = rules.legal_plays(game, seat)
  if #plays == 0 then return nil end
  -- Private, and announced as the card is played face up to its side: the
  -- options are the hand's cards, so an answer's position among them would
  -- tell the others about the rest of the hand (rulebook check's worlds test).
  local play = game:choose(seat, "Play a card to a side", plays, {private = true})
  return play.card, play.side
end

---------------------------------------------------------------------------
-- The actions. "Die Aktion der gespielten Karte muss ausgeführt werden."
-- An action with nothing to act on does nothing.
---------------------------------------------------------------------------

-- TAUCHER SCHWIMMT WEITER: "Dein Taucher tauscht seinen Platz mit einem
-- beliebigen angrenzenden Taucher oder schwimmt an einen angrenzenden
-- freien Platz (falls 1 oder mehrere Taucher getarnt sind)."
function rules.action_diver_swims(game, seat, card, side)
  local moves = {}
  for _, diver in ipairs(rules.divers_of(game, seat)) do
    local from = rules.diver_cell(game, diver)
    if from then
      for _, cell in ipairs(game.centre) do
        if game.sea:adjacent(from, cell) then
          local other = rules.diver_at(game, cell)
          moves[#moves + 1] = setmetatable({game = game, diver = diver, from = from, to = cell, other = other}, MOVE_LABEL)
        end
      end
    end
  end
  if #moves == 0 then
    if game.talk then game:say("%s has no diver on the board to swim", seat_name(game, seat)) end
    return
  end
  local m = game:choose(seat, "Which way does your diver swim?", moves)
  rules.move_diver(game, m.diver, m.to)
  if m.other then rules.move_diver(game, m.other, m.from) end
end

-- KÄFIG: "Du platzierst den Käfig auf einem beliebigen Taucher. Steht der
-- Käfig bereits auf einem Taucher, muss er auf einen anderen Taucher
-- gelegt werden." Divers off the board and dummies cannot take it.
function rules.action_cage_harpoon(game, seat, card, side)
  local targets = {}
  for _, d in ipairs(game.divers) do
    if d ~= game.caged and rules.diver_cell(game, d) and not rules.is_dummy(game, d) then
      targets[#targets + 1] = setmetatable({diver = d}, CAGE_LABEL)
    end
  end
  if #targets == 0 then
    game:say("There is no other diver to put the cage on")
    return
  end
  local t = game:choose(seat, "Put the cage on which diver?", targets)
  game.caged = t.diver
  game.cage:move(rules.diver_cell(game, t.diver))
  if game.talk then game:say("The cage now stands on the %s", diver_name(t.diver)) end
end

-- HAI SCHWIMMT WEITER: "Du lässt 1 beliebigen Hai mit einem angrenzenden
-- Hai seinen Platz tauschen." Adjacent = next to each other on the ring.
-- (The pairs of neighbouring places never change: their options are made
-- once a game; a label names the sharks there when it is read.)
function rules.action_shark_swims(game, seat, card, side)
  local swaps = game.swap_options
  if not swaps then
    swaps = {}
    local ring = game.ring
    for i = 1, #ring do
      swaps[i] = setmetatable({game = game, a = ring[i], b = ring[i % #ring + 1]}, SWAP_LABEL)
    end
    game.swap_options = swaps
  end
  local s = game:choose(seat, "Which two sharks swap places?", swaps)
  local sa, sb = rules.shark_at(game, s.a), rules.shark_at(game, s.b)
  sa:move(s.b)
  sb:move(s.a)
end

-- HAI UMDREHEN: "Du drehst 1 beliebigen Hai auf die andere Seite."
-- (One option per place on the ring, made once a game.)
function rules.action_turn_shark(game, seat, card, side)
  local options = game.turn_options
  if not options then
    options = {}
    for i, cell in ipairs(game.ring) do options[i] = setmetatable({game = game, cell = cell}, TURN_LABEL) end
    game.turn_options = options
  end
  local o = game:choose(seat, "Turn which shark over?", options)
  rules.shark_at(game, o.cell):turn_over()
end

-- ALLE HAIE SCHWIMMEN WEITER: "Jeder Hai schwimmt im Uhrzeigersinn um 1
-- Platz weiter."
function rules.action_all_sharks(game, seat, card, side)
  game:say("Every shark swims one place clockwise")
  local ring, sharks = game.ring, {}
  for i = 1, #ring do sharks[i] = rules.shark_at(game, ring[i]) end
  for i = 1, #ring do
    sharks[i]:move(ring[i % #ring + 1])  -- the next place along the ring
  end
end

-- TARNUNG: "Dein Taucher ist bis zum Anfang deines nächsten Zuges gegen
-- Haiangriffe immun. Das Taucherplättchen wird bis zu deinem nächsten Zug
-- aus der Auslage genommen." With 2 players, the player picks which diver.
function rules.action_camouflage(game, seat, card, side)
  local options = {}
  for _, d in ipairs(rules.divers_of(game, seat)) do
    if rules.diver_cell(game, d) then options[#options + 1] = setmetatable({diver = d}, CAMOUFLAGE_LABEL) end
  end
  if #options == 0 then
    if game.talk then game:say("%s has no diver on the board to camouflage", seat_name(game, seat)) end
    return
  end
  local o = game:choose(seat, "Camouflage which diver?", options)
  local from = rules.diver_cell(game, o.diver)
  rules.move_diver(game, o.diver, game.camouflaged)
  game.state.camouflaged[rules.colour_of(game, o.diver)] = where(game, from)
  if game.talk then
    game:say("The %s is camouflaged and leaves the board until %s's next turn", diver_name(o.diver),
             seat_name(game, seat))
  end
end

-- JOKER: the card has no action of its own; it only fills a side.
function rules.action_joker(game, seat, card, side)
  game:say("The joker has no action")
end

-- "Bist du am Zug, musst du 1 Aktionskarte aus der Hand an eine der 4
-- Seiten des Spielfeldes anlegen und musst anschließend die angegebene
-- Aktion durchführen."
function rules.play_card(game, seat, card, side)
  card:move(game.sides[side], "bottom")
  rules.update_state(game, side)
  rules["action_" .. card:attr("action")](game, seat, card, side)
  rules.update_state(game)
end

---------------------------------------------------------------------------
-- Camouflage ends: "Wenn beim Wiedereinsetzen mehr als 1 Platz frei sein
-- sollte (mehrere gleichzeitige Tarnungen), darfst du den Einsetzplatz frei
-- wählen."
---------------------------------------------------------------------------

function rules.return_from_camouflage(game, seat)
  if game.camouflaged:empty() then return end
  for _, d in ipairs(rules.divers_of(game, seat)) do
    if d:zone() == game.camouflaged then
      local free = rules.free_places(game)
      local options = {}
      for _, cell in ipairs(free) do
        options[#options + 1] = setmetatable({game = game, cell = cell}, RETURN_LABEL)
      end
      local o = game:choose(seat, "Where does your diver come back?", options)
      rules.move_diver(game, d, o.cell)
      game.state.camouflaged[rules.colour_of(game, d)] = nil
      if game.talk then game:say("The %s is back on the board at %s", diver_name(d), where(game, o.cell)) end
    end
  end
end

---------------------------------------------------------------------------
-- HAIANGRIFF
---------------------------------------------------------------------------

-- "'Käfig/Harpune'-Karten, die als Harpunen gespielt wurden, bleiben
-- liegen bis zum nächsten Angriff": they go when the next attack starts.
function rules.clear_harpoons(game)
  for _, side in ipairs(rules.SIDES) do game.harpoons[side]:move_all(game.discard) end
end

-- The harpoon cards a seat could play against an attack from `side`:
-- "nur an die Seite, von der aus der Haiangriff erfolgt (die Farbe der
-- Harpune muss übereinstimmen)". A side of jokers only takes any colour
-- that may lie there.
function rules.harpoons_in_hand(game, seat, side)
  local cards, seen = {}, {}
  local out = rules.colours_out(game)
  for _, card in ipairs(game.hands[seat]:items()) do
    if card:attr("action") == "cage_harpoon" and not seen[card:type()]
       and rules.colour_fits(game, card:attr("colour"), side, out) then
      seen[card:type()] = true
      cards[#cards + 1] = card
    end
  end
  return cards
end

-- ALS HARPUNE: "Du kannst die Karte auch als Reaktion auf einen Haiangriff
-- legen (egal, wer am Zug ist)". The owner of attacked divers is asked,
-- out of turn; with two of their divers attacked at once, one harpoon
-- saves one of them. Returns the set of divers saved.
function rules.harpoon_reactions(game, seat, side, attacks)
  local saved = {}
  local n = game:player_count()
  for k = 0, n - 1 do
    local owner = (seat + k) % n
    local mine = {}
    for _, a in ipairs(attacks) do
      if rules.owner_of(game, a.diver) == owner then mine[#mine + 1] = a.diver end
    end
    if #mine > 0 then
      -- Asked even without a fitting card (then "no harpoon" is the only
      -- answer: taken without asking, and not narrated to the owner), and
      -- private: the other seats read that the owner made a choice, whether
      -- or not there was one to make, so the question gives nothing away
      -- about the hand.
      local cards = rules.harpoons_in_hand(game, owner, side)
      do
        local options = {{label = "no harpoon"}}
        for _, card in ipairs(cards) do
          for _, d in ipairs(mine) do
            options[#options + 1] = setmetatable({card = card, diver = d}, HARPOON_LABEL)
          end
        end
        local o = game:choose(owner, HARPOON_PROMPT[side], options, {private = true})
        if o.card then
          o.card:move(game.harpoons[side])
          saved[o.diver] = true
          if game.talk then
            game:say("%s fires a harpoon to defend the %s", seat_name(game, owner), diver_name(o.diver))
          end
        end
      end
    end
  end
  return saved
end

-- A full shark turns hungry: "Handelt es sich um einen 'satten' Hai, wird
-- dieser auf die 'hungrige' Seite gedreht."
function rules.shark_wakes(game, shark, cell)
  if game.talk then game:say("The full shark at %s turns hungry", where(game, cell)) end
  shark:set_face("hungry")
end

-- A hungry shark bites: "Dieser wird auf die 'verletzte' Seite gedreht.
-- Der Hai wird auf die 'satte' Seite gedreht. War der Taucher bereits vor
-- dem Angriff verletzt, endet nach diesem Angriff das Spiel."
function rules.bite(game, attack, shark, cell, diver)
  if diver:is("healthy") then
    if game.talk then
      game:say("The hungry shark at %s bites the %s, who is injured; the shark is full", where(game, cell),
               diver_name(diver))
    end
    diver:set_face("injured")
    shark:set_face("full")
  else
    if game.talk then
      game:say("The hungry shark at %s bites the injured %s again; the shark is full", where(game, cell),
               diver_name(diver))
    end
    shark:set_face("full")
    rules.diver_eaten(game, attack, diver)
  end
end

-- "Dieser Taucher wird zur Beute der Haie." The game ends after the
-- attack; with 2 players "Das Spiel endet sofort, wenn der erste Taucher
-- zur Beute wird": at once, before the side's other shark acts.
function rules.diver_eaten(game, attack, diver)
  if game.talk then game:say("The %s is the sharks' prey!", diver_name(diver)) end
  attack.eaten[#attack.eaten + 1] = diver
  if game:player_count() == 2 then rules.end_game(game, attack.eaten) end
end

-- One hungry shark's attack on the diver next to it. "Ist der Angriff aus
-- irgendeinem Grund nicht erfolgreich (Harpune, Käfig, Tarnung, 'Dummy'),
-- bleibt der Hai hungrig."
function rules.resolve_attack(game, attack, a)
  if attack.saved[a.diver] then
    if game.talk then
      game:say("The harpoon drives off the shark at %s: the %s is unharmed, the shark stays hungry",
               where(game, a.cell), diver_name(a.diver))
    end
  elseif game.caged == a.diver then
    -- "wird der Käfig zerstört und kommt zurück neben das Spielfeld. Dem
    -- Taucher passiert nichts, der Hai bleibt aber weiterhin hungrig."
    game.cage:move(game.box)
    game.caged = nil
    if game.talk then
      game:say("The shark at %s destroys the cage: the %s is unharmed, the shark stays hungry",
               where(game, a.cell), diver_name(a.diver))
    end
  else
    rules.bite(game, attack, a.shark, a.cell, a.diver)
  end
end

-- "Die beiden Haie dieser Seite werden aktiv." In clockwise order.
function rules.shark_attack(game, seat, side)
  game:say("Shark attack from the %s side!", side)
  rules.clear_harpoons(game)
  local attack = {side = side, eaten = {}, saved = {}}
  local attacks = {}
  local steps = {}
  for _, pair in ipairs(game.side_sharks[side]) do
    local shark = rules.shark_at(game, pair.shark)
    if shark:is("full") then
      steps[#steps + 1] = {wake = true, shark = shark, cell = pair.shark}
    else
      local diver = rules.diver_at(game, pair.diver)
      if not diver then
        steps[#steps + 1] = {empty = true, cell = pair.shark, place = pair.diver}
      elseif rules.is_dummy(game, diver) then
        steps[#steps + 1] = {dummy = diver, cell = pair.shark}
      else
        local a = {shark = shark, cell = pair.shark, diver = diver}
        attacks[#attacks + 1] = a
        steps[#steps + 1] = {attack = a}
      end
    end
  end
  attack.saved = rules.harpoon_reactions(game, seat, side, attacks)
  for _, s in ipairs(steps) do
    if s.wake then
      rules.shark_wakes(game, s.shark, s.cell)
    elseif s.empty then
      if game.talk then
        game:say("The hungry shark at %s finds nobody at %s (camouflage) and stays hungry",
                 where(game, s.cell), where(game, s.place))
      end
    elseif s.dummy then
      if game.talk then
        game:say("The hungry shark at %s cannot hurt the dummy %s and stays hungry",
                 where(game, s.cell), diver_name(s.dummy))
      end
    else
      rules.resolve_attack(game, attack, s.attack)
    end
  end
  -- "Die 3 Aktionskarten, die den Angriff ausgelöst haben, werden auf den
  -- Ablagestapel gelegt."
  game.sides[side]:move_all(game.discard)
  rules.update_state(game, side)
  rules.attack_over(game, seat, attack)
end

-- After the attack: the game ends if a diver was eaten.
function rules.attack_over(game, seat, attack)
  if #attack.eaten > 0 then rules.end_game(game, attack.eaten) end
end

-- "Alle überlebenden Taucher haben gewonnen. In seltenen Fällen kann es
-- auch 2 Verlierer geben." With 2 players: "Wer noch beide Taucher hat,
-- gewinnt."
function rules.end_game(game, eaten)
  local lost, losers, names = {}, {}, {}
  for _, d in ipairs(eaten) do
    local owner = rules.owner_of(game, d)
    names[#names + 1] = diver_name(d)
    if not lost[owner] then
      lost[owner] = true
      losers[#losers + 1] = owner
    end
  end
  local winners, winner_names = {}, {}
  for _, seat in ipairs(game:seats()) do
    if not lost[seat] then
      winners[#winners + 1] = seat
      winner_names[#winner_names + 1] = game:player_name(seat)
    end
  end
  local loser_names = {}
  for i, s in ipairs(losers) do loser_names[i] = game:player_name(s) end
  game:finish{
    winners = winners,
    losers = losers,
    reason = "diver-eaten",
    summary = string.format("the sharks eat the %s: %s %s, %s %s", table.concat(names, " and the "),
                            table.concat(loser_names, " and "), #losers == 1 and "loses" or "lose",
                            #winners > 0 and table.concat(winner_names, ", ") or "nobody",
                            #winners == 1 and "wins" or "win"),
  }
end

---------------------------------------------------------------------------
-- A turn
---------------------------------------------------------------------------

-- "Du ziehst solange Karten vom Nachziehstapel, bis du wieder 3 auf der
-- Hand hältst. Ist der Nachziehstapel aufgebraucht, wird der Ablagestapel
-- gemischt und als neuer Nachziehstapel bereitgelegt."
function rules.draw(game, seat)
  local hand = game.hands[seat]
  while hand:count() < 3 do
    if not game.deck:draw(hand, game.discard) then break end
  end
end

function rules.turn(game, seat)
  rules.return_from_camouflage(game, seat)
  -- "In seltenen Fällen kann es passieren, dass du zu Beginn deines Zuges
  -- keine Karten auf der Hand hast. Dann führst du nur Phase 2 durch."
  if game.hands[seat]:empty() then
    if game.talk then game:say("%s has no cards and only draws", seat_name(game, seat)) end
  else
    local card, side = rules.choose_play(game, seat)
    if card then
      rules.play_card(game, seat, card, side)
      -- "Spielst du die dritte Karte an eine Seite, erfolgt nach der Aktion
      -- ein Haiangriff."
      if game.sides[side]:count() >= 3 then rules.shark_attack(game, seat, side) end
    else
      if game.talk then game:say("%s cannot place any card and only draws", seat_name(game, seat)) end
    end
  end
  -- (A player knocked out during their own turn, in a variant, draws no more.)
  if not game:is_eliminated(seat) then rules.draw(game, seat) end
end

function rules.play(game)
  local seat = game:first_seat()
  while true do
    game:begin_turn(seat)
    rules.turn(game, seat)
    seat = game:next_seat(seat)
  end
end

---------------------------------------------------------------------------
-- For scenario files: `prepare` calls rules.scenario_helpers(game) to get
-- these, so that no game played for real carries them.
---------------------------------------------------------------------------

function rules.scenario_helpers(game)
  -- game.give(seat, {"red_cage_harpoon", ...}): the seat's hand becomes
  -- exactly these cards (taken from the deck or the discard pile).
  -- A card of this type from the deck, the discard pile or another hand.
  local function find_card(t, except)
    local c = game.deck:find(t) or game.discard:find(t)
    for _, seat in ipairs(game:seats()) do
      if not c and seat ~= except then c = game.hands[seat]:find(t) end
    end
    assert(c, "no " .. t .. " left to take")
    return c
  end
  game.give = function(seat, types)
    game.hands[seat]:move_all(game.deck)
    for _, t in ipairs(types) do find_card(t, seat):move(game.hands[seat]) end
  end
  -- game.lay("bottom", {"red_turn_shark", ...}): cards lying at a side.
  game.lay = function(side, types)
    for _, t in ipairs(types) do find_card(t):move(game.sides[side], "bottom") end
    rules.update_state(game)
  end
  -- game.shark(x, y, "hungry"): a shark's face.
  game.shark = function(x, y, face)
    rules.shark_at(game, game.sea:cell(x, y)):set_face(face)
  end
  -- game.place("blue", x, y): a diver swaps places with whoever is there.
  game.place = function(colour, x, y)
    local diver = game:components("diver_" .. colour)[1]
    local to = game.sea:cell(x, y)
    local from = rules.diver_cell(game, diver)
    local other = rules.diver_at(game, to)
    rules.move_diver(game, diver, to)
    if other and other ~= diver then rules.move_diver(game, other, from) end
  end
  -- game.injure("blue"): a diver's injured side.
  game.injure = function(colour)
    game:components("diver_" .. colour)[1]:set_face("injured")
  end
  -- game.camo("green"): a diver is camouflaged (off the board).
  game.camo = function(colour)
    local diver = game:components("diver_" .. colour)[1]
    local from = rules.diver_cell(game, diver)
    rules.move_diver(game, diver, game.camouflaged)
    game.state.camouflaged[colour] = where(game, from)
  end
  -- game.knock_out("blue") (last diver swimming): a diver is already out.
  game.knock_out = function(colour)
    local diver = game:components("diver_" .. colour)[1]
    diver:set_face("injured")
    game.state.dummies[colour] = true
    game.state.out[#game.state.out + 1] = colour
    local seat = rules.owner_of(game, diver)
    if #rules.divers_of(game, seat) == 0 then
      game.hands[seat]:move_all(game.discard)
      game:eliminate(seat)
    end
  end
  game.cage_on = function(colour)
    local diver = game:components("diver_" .. colour)[1]
    game.caged = diver
    game.cage:move(rules.diver_cell(game, diver))
    rules.update_state(game)
  end
end

-- The game's estimate of a seat's share of the win, for bots (greedy, cut-off
-- rollouts). "Wer zuerst zweimal gebissen wurde, verliert das Spiel, alle
-- anderen gewinnen": a seat's danger is its divers' bites (an injured diver
-- is one bite from losing) and the hungry sharks facing them on the board,
-- the nearer the more cards lie at their side (the third card sets off the
-- attack); a camouflaged diver faces none. The seat in most danger is the
-- likeliest loser (its chance, a softmax of the dangers) and every other
-- seat shares the win, as the outcome scores it (1/k for k winners).
function rules.evaluate(game, seat)
  local danger = {}
  for _, s in ipairs(game:seats()) do danger[s] = 0 end
  for _, diver in ipairs(game.divers) do
    local owner = rules.owner_of(game, diver)
    if owner ~= nil and danger[owner] and not rules.is_dummy(game, diver) then
      local injured = diver:is("injured")
      if injured then danger[owner] = danger[owner] + 2 end
      local cell = rules.diver_cell(game, diver)
      for _, side in ipairs(rules.SIDES) do
        for _, pair in ipairs(game.side_sharks[side]) do
          local shark = cell and pair.diver == cell and rules.shark_at(game, pair.shark)
          if shark and not shark:is("full") then
            danger[owner] = danger[owner] + (injured and 2 or 1) * (1 + game.sides[side]:count()) / 4
          end
        end
      end
    end
  end
  local total = 0
  for _, s in ipairs(game:seats()) do total = total + math.exp(danger[s]) end
  local loses = math.exp(danger[seat]) / total
  return (1 - loses) / (game:player_count() - 1)
end

-- What a player sees at a glance (the terminal and the web table show it
-- above the board): whose each diver is, how it is and where, which sharks
-- are hungry, what lies at each side. Public facts only: every line is the
-- same for every seat but the word "yours".
function rules.describe(game, seat)
  local lines = {}
  if not game.divers then return lines end  -- before the setup
  local owners, dummies = game.state.owners or {}, game.state.dummies or {}
  for _, diver in ipairs(game.divers) do
    local colour = diver:attr("colour")
    local owner = owners[colour]
    local whose = "nobody's"
    if dummies[colour] then whose = "a dummy"
    elseif owner == seat then whose = "YOURS"
    elseif owner ~= nil then whose = seat_name(game, owner) .. "'s" end
    local cell = rules.diver_cell(game, diver)
    local place = cell and ("at " .. where(game, cell)) or "camouflaged, off the board"
    if diver:zone() == game.box then place = "beside the board" end
    lines[#lines + 1] = {label = diver_name(diver), value = string.format("%s, %s, %s%s", whose, diver:face(), place,
                                                                           game.caged == diver and ", caged" or "")}
  end
  local hungry = {}
  for _, cell in ipairs(game.ring or {}) do
    local shark = rules.shark_at(game, cell)
    if shark and shark:is("hungry") then hungry[#hungry + 1] = where(game, cell) end
  end
  lines[#lines + 1] = {label = "hungry sharks", value = #hungry > 0 and table.concat(hungry, " ") or "none"}
  for _, side in ipairs(rules.SIDES) do
    local n = game.sides and game.sides[side] and game.sides[side]:count() or 0
    local colour = rules.side_colour(game, side) or "no colour yet"
    lines[#lines + 1] = {label = side .. " side", value = string.format("%d of 3 cards, %s", n, colour)}
  end
  return lines
end

return rules
