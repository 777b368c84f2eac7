-- characters.lua: bump.lua's world:move on the character scene of
-- bench/mover_bench.cpp (Move/characters_1000_on_200x200_tiles), so that
-- sweep's World::move can be compared with bump.lua side by side.
--
-- The scene: a 200x200 map of 16x16 tiles, each cell solid with probability
-- 0.7, every solid tile an item of its own; 1000 characters, 12x12 boxes,
-- each centred in a distinct free cell (the free cells shuffled, the first
-- 1000 taken). Every frame each character moves toward a goal drawn
-- uniformly within +-8 px of where it is on each axis, with bump's default
-- filter (it slides against everything, the other characters too). After
-- 20 frames of warm-up, FRAMES frames are timed with os.clock() and the
-- script prints the moves per second and the collisions bump's move reports
-- per move (its `len`) on average.
--
-- bump.lua is not part of this repository: it is MIT licensed
-- (Copyright (c) 2014 Enrique Garcia Cota) and must be fetched separately
-- from https://github.com/kikito/bump.lua (v3.1.7, its bump.lua file).
--
-- Run it under LuaJIT, naming the directory that holds bump.lua:
--
--   luajit characters.lua /path/to/dir-with-bump.lua [CELL_SIZE [FRAMES]]
--
-- CELL_SIZE is bump's world cell size (default 64, bump's own default; 16
-- and 32 are worth trying too), FRAMES the number of timed frames (default
-- 200). Each run measures once; run it several times and take the median.

local dir = arg[1]
if not dir then
  io.stderr:write('usage: luajit characters.lua /path/to/dir-with-bump.lua [CELL_SIZE [FRAMES]]\n')
  os.exit(1)
end
package.path = dir .. '/?.lua;' .. package.path
local bump = require('bump')

local cell_size = tonumber(arg[2] or '64')
local frames = tonumber(arg[3] or '200')
local warmup_frames = 20

local map = 200
local tile = 16
local character_count = 1000
local half = 6 -- the characters are 12x12

math.randomseed(5)
local random = math.random

local world = bump.newWorld(cell_size)

-- The tiles, row after row; the free cells' centres kept for the characters.
local free_cells = {}
for y = 0, map - 1 do
  for x = 0, map - 1 do
    if random() < 0.7 then
      world:add({tile = true}, x * tile, y * tile, tile, tile)
    else
      free_cells[#free_cells + 1] = {x * tile + tile / 2, y * tile + tile / 2}
    end
  end
end

-- Fisher-Yates shuffle of the free cells; the characters take the first 1000.
for i = #free_cells, 2, -1 do
  local j = random(i)
  free_cells[i], free_cells[j] = free_cells[j], free_cells[i]
end
assert(#free_cells >= character_count, 'not enough free cells')

local characters = {}
for i = 1, character_count do
  local cx, cy = free_cells[i][1], free_cells[i][2]
  local c = {character = i}
  world:add(c, cx - half, cy - half, 2 * half, 2 * half)
  characters[i] = c
end

-- A uniform float in [-8, 8).
local function offset()
  return -8 + 16 * random()
end

-- One frame: every character moves once. Returns the collisions reported.
local function frame()
  local collisions = 0
  for i = 1, character_count do
    local c = characters[i]
    local x, y = world:getRect(c)
    local _, _, _, len = world:move(c, x + offset(), y + offset())
    collisions = collisions + len
  end
  return collisions
end

for _ = 1, warmup_frames do frame() end

local collisions = 0
local start = os.clock()
for _ = 1, frames do
  collisions = collisions + frame()
end
local seconds = os.clock() - start

local moves = frames * character_count
print(string.format(
  '%s cell_size=%d frames=%d seconds=%.3f moves_per_second=%.0f collisions_per_move=%.4f',
  bump._VERSION, cell_size, frames, seconds, moves / seconds, collisions / moves))
