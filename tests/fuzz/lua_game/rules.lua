-- A decision and a finish, so that the fuzzed prepare code meets a game
-- that is alive before and after it.
local rules = {}
function rules.setup(game) end
function rules.play(game)
  game:choose(0, "go?", {"yes", "no"})
  game:finish{}
end
return rules
