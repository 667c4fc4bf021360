-- Love Letter's Guard alone: name a card (never a Guard) from a fixed list;
-- a right guess shows the card and knocks its holder out.
local rules = {}
local GUESSES = {"Priest", "Baron", "Handmaid", "Prince", "King", "Countess", "Princess"}

function rules.setup(game)
  game:zone("deck"):shuffle()
  for _, seat in ipairs(game:seats()) do game:zone("deck"):move_top(1, game:zone("hand", seat)) end
end

function rules.play(game)
  local out = {}
  for round = 1, 3 do
    for _, seat in ipairs(game:seats()) do
      if not out[seat] then
        game:begin_turn(seat)
        local target = (seat + 1) % game:player_count()
        while out[target] and target ~= seat do target = (target + 1) % game:player_count() end
        if target == seat then break end
        local guess = game:choose(seat, "Guess seat " .. target .. "'s card", GUESSES)
        local card = game:zone("hand", target):items()[1]
        if card:title() == guess then
          card:move(game:zone("table"))
          game:say("Seat %d held the %s and is out", target, guess)
          out[target] = true
        else
          game:say("Seat %d does not hold the %s", target, guess)
        end
      end
    end
  end
  game:finish{}
end

return rules
