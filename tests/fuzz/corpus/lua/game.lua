local z = game:zone("supply")
local c = z:count()
local ok = pcall(function() return game:zone("nowhere") end)
game:message("prepared " .. c)
