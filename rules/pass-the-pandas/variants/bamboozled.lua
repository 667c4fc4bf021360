-- Bamboozled replaces step 5 ("keep all blank dice"): a player who rolled
-- only blanks with at least `bamboozled_min_dice` dice may swap all their
-- dice with another player.
local rules = ...

function rules.keep_blanks(game, seat, pool, rolled)
  if rolled.dice < game.options.bamboozled_min_dice or rolled.blank ~= rolled.dice then
    return
  end
  local options = {{label = "keep my dice"}}
  for _, other in ipairs(rules.panda_recipients(game, seat)) do
    options[#options + 1] = {label = "exchange with " .. game:player_name(other), seat = other}
  end
  local choice = game:choose(seat, "Bamboozled! Exchange all your dice with another player?", options)
  if choice.seat then
    local given, taken = pool:exchange(game.dice[choice.seat])
    game:say("%s exchanges %d dice for %s's %d", game:player_name(seat), given,
             game:player_name(choice.seat), taken)
  end
end
