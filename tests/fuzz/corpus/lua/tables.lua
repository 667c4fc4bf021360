local t = {}
for i = 1, 10 do t[i] = {i, tostring(i), {x = i}} end
table.sort(t, function(a, b) return a[1] > b[1] end)
game.state.t = t
