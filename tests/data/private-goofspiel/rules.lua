-- Goofspiel with private numbers (issue 38's example; the same-view tests
-- play it with 3 prizes and hands of 4): each prize, 1 to options.prizes in
-- order, seat 0 then seat 1 bid a number of their hand {1..options.hand}
-- (0: as many as prizes) privately; only who took the prize is told. A search
-- bot redraws the other seat's bids, from a checkpoint
-- (tests/unit/bots/test_checkpoint_samples.cpp; bench/README.md measures it).
local rules = {}
function rules.setup(game) game.state.score = {0, 0} end
function rules.play(game)
  local PRIZES = game.options.prizes
  local HAND = game.options.hand > 0 and game.options.hand or PRIZES
  local hands = {}
  for seat = 1, 2 do
    hands[seat] = {}
    for v = 1, HAND do hands[seat][v] = v end
  end
  for prize = 1, PRIZES do
    local bids = {}
    for seat = 0, 1 do
      local hand = hands[seat + 1]
      local bid = game:choose(seat, 'Bid for prize ' .. prize, hand, {private = true})
      for i, v in ipairs(hand) do if v == bid then table.remove(hand, i) break end end
      bids[seat] = bid
    end
    if bids[0] ~= bids[1] then
      local taker = bids[0] > bids[1] and 0 or 1
      game.state.score[taker + 1] = game.state.score[taker + 1] + prize
      game:say('Seat %d takes prize %d', taker, prize)
    else
      game:say('Nobody takes prize %d', prize)
    end
  end
  local s = game.state.score
  game:finish{winners = {s[1] >= s[2] and 0 or 1}}
end
function rules.evaluate(game, seat)
  local s = game.state.score
  return (s[seat + 1] + 1) / (s[1] + s[2] + 2)
end
return rules
