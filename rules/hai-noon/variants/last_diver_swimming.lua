-- "Last diver swimming": replaces what happens when an injured diver is
-- bitten again, and when the game ends.
local rules = ...

-- "Wird ein Taucher zum zweiten Mal attackiert, ist er ausgeschieden.
-- Ausgeschiedene Taucher fungieren als Dummy." The diver stays where it
-- is, injured, as a dummy: it cannot be hurt and feeds no shark. A cage on
-- it goes back beside the board. A player with no diver left is out of the
-- game; their hand goes to the discard pile.
function rules.diver_eaten(game, attack, diver)
  local colour = diver:attr("colour")
  game.state.dummies[colour] = true
  game.state.out[#game.state.out + 1] = colour
  if game.caged == diver then
    game.cage:move(game.box)
    game.caged = nil
  end
  game:say("The %s is out and stays on the board as a dummy", diver:title())
  attack.out = attack.out or {}
  attack.out[#attack.out + 1] = diver
  local seat = rules.owner_of(game, diver)
  if #rules.divers_of(game, seat) == 0 then
    game.hands[seat]:move_all(game.discard)
    game:eliminate(seat)
  end
end

-- "... bis nur noch 1 Taucher übrig bleibt": when the divers still in the
-- game all belong to one player, that player wins. Should one attack take
-- out every remaining diver, the players knocked out by it share the win.
function rules.attack_over(game, seat, attack)
  if not attack.out then return end
  local alive = {}
  for _, s in ipairs(game:seats()) do
    if #rules.divers_of(game, s) > 0 then alive[#alive + 1] = s end
  end
  if #alive > 1 then return end
  local winners = alive
  if #winners == 0 then
    local seen = {}
    for _, d in ipairs(attack.out) do
      local s = rules.owner_of(game, d)
      if not seen[s] then
        seen[s] = true
        winners[#winners + 1] = s
      end
    end
  end
  local is_winner, losers, names = {}, {}, {}
  for _, s in ipairs(winners) do
    is_winner[s] = true
    names[#names + 1] = game:player_name(s)
  end
  for _, s in ipairs(game:seats()) do
    if not is_winner[s] then losers[#losers + 1] = s end
  end
  game:finish{
    winners = winners,
    losers = losers,
    reason = "last-diver-swimming",
    summary = string.format("last diver swimming: %s %s", table.concat(names, " and "),
                            #winners == 1 and "wins" or "win"),
  }
end
