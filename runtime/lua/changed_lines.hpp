#pragma once
// Copying a snapshot back over memory that is mostly as it was: a search
// restores a checkpoint of the Lua heap before every simulation, and a
// simulation writes few of the heap's bytes (Liar's Dice: about 40 of its
// 1,250 cache lines). Reading both copies and writing only the lines that
// differ is faster than writing every byte (bench/README.md, "Liar's Dice
// against OpenSpiel"), and leaves the same bytes.
#include <cstddef>

namespace rulebook {

// Makes dst[0, n) equal to src[0, n) (which must not overlap it).
void copy_changed_lines(char* dst, const char* src, size_t n);

}  // namespace rulebook
