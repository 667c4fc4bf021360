-- Cards held facing out (each seat sees every hand but its own), one
-- mode per leak class and its correct twin (game.yaml's options.mode).
local rules = {}
local COLOURS = {"red", "blue", "green"}

local function hand(game, seat) return game:zone("hand", seat) end
local function next_seat(game, seat) return (seat + 1) % game:player_count() end

-- What public state says about the hands.
local function publish(game)
  local mode = game.options.mode
  game.state.hands = {}
  for _, seat in ipairs(game:seats()) do
    local titles, types = {}, {}
    for _, card in ipairs(hand(game, seat):items()) do
      titles[#titles + 1] = card:title()
      types[#types + 1] = card:type()
    end
    if mode == "state-titles" then game.state.hands[seat + 1] = titles
    elseif mode == "state-types" then game.state.hands[seat + 1] = types
    elseif mode == "state-joined" then game.state.hands[seat + 1] = table.concat(titles, ", ")
    else game.state.hands[seat + 1] = #titles end
  end
end

function rules.setup(game)
  game:zone("deck"):shuffle()
  for _, seat in ipairs(game:seats()) do game:zone("deck"):move_top(2, hand(game, seat)) end
  publish(game)
  local mode = game.options.mode
  for _, seat in ipairs(game:seats()) do
    local card = hand(game, seat):items()[1]
    if mode == "message" then
      game:say("Seat %d's first card is the %s", seat, card:title())
    elseif mode == "message-fine" then
      local others = {}
      for _, s in ipairs(game:seats()) do if s ~= seat then others[#others + 1] = s end end
      game:say_to(others, "Seat %d's first card is the %s", seat, card:title())
    end
  end
end

-- A hint to the next seat: a colour of its hand.
local function hint(game, seat)
  local mode = game.options.mode
  local target = next_seat(game, seat)
  local present = {}
  for _, card in ipairs(hand(game, target):items()) do present[card:attr("colour")] = true end
  local options = {}
  if mode == "position" then
    -- every colour, but those the target holds first: the answer's position tells it
    for _, c in ipairs(COLOURS) do if present[c] then options[#options + 1] = c end end
    for _, c in ipairs(COLOURS) do if not present[c] then options[#options + 1] = c end end
  elseif mode == "hint-options" or mode == "hint-private" then
    for _, c in ipairs(COLOURS) do if present[c] then options[#options + 1] = c end end
    -- A private decision of one option is taken without asking, which the
    -- others would see: the twin always offers a second.
    if mode == "hint-private" then options[#options + 1] = "no hint" end
  else
    for _, c in ipairs(COLOURS) do options[#options + 1] = c end
  end
  local colour = game:choose(seat, "Hint a colour", options, {private = mode == "hint-private"})
  local positions = {}
  for i, card in ipairs(hand(game, target):items()) do
    if card:attr("colour") == colour then positions[#positions + 1] = tostring(i) end
  end
  if mode == "hint-private" then
    -- the decision is private and the rules announce it: a reveal on purpose
    game:say("Seat %d tells seat %d: %s at %s", seat, target, colour,
             #positions > 0 and table.concat(positions, " and ") or "no card")
  end
end

-- Play a card of one's own hand (face up: everybody sees it then).
local function play_card(game, seat)
  local mode = game.options.mode
  local options = {}
  for i, card in ipairs(hand(game, seat):items()) do
    options[#options + 1] = mode == "labels" and string.format("play card %d (%s)", i, card:title())
                            or string.format("play card %d", i)
  end
  local _, index = game:choose(seat, "Play a card", options, {private = false})
  local card = hand(game, seat):items()[index]
  card:move(game:zone("table"))
  if game:zone("deck"):count() > 0 then game:zone("deck"):move_top(1, hand(game, seat)) end
end

function rules.play(game)
  for round = 1, 2 do
    for _, seat in ipairs(game:seats()) do
      game:begin_turn(seat)
      local mode = game.options.mode
      if mode == "labels" or mode == "labels-fine" then play_card(game, seat)
      else
        hint(game, seat)
        play_card(game, seat)
      end
      publish(game)
    end
  end
  game:finish{}
end

function rules.describe(game, seat)
  local lines = {}
  local mode = game.options.mode
  for _, s in ipairs(game:seats()) do
    if (mode == "describe" or s ~= seat) and mode ~= "state-fine" then
      local cards = hand(game, s):items()
      if #cards > 0 and (mode == "describe" or mode == "describe-fine") then
        lines[#lines + 1] = {label = string.format("seat %d's first card", s), value = cards[1]:title()}
      end
    end
  end
  return lines
end

return rules
