#pragma once
// A game whose components are shaped by its options (setup/component_shapes.hpp),
// for the tests of the setup layer and of the command line.

namespace rulebook::test {

// Goofspiel's cards (a suit of N per seat, prizes 1..N) and Liar's Dice's
// dice (dice per seat, S sides), as game.yaml writes them.
inline const char* const kShapedGame =
    "name: shaped\n"                                                                        // 1
    "title: Shaped\n"                                                                       // 2
    "script: rules.lua\n"                                                                   // 3
    "players: {min: 2, max: 4, default: 2}\n"                                               // 4
    "options:\n"                                                                            // 5
    "  cards: 13\n"                                                                         // 6
    "  sides: 6\n"                                                                          // 7
    "  dice: 5\n"                                                                           // 8
    "  label: thirteen\n"                                                                   // 9
    "zones:\n"                                                                              // 10
    "  - {name: box}\n"                                                                     // 11
    "  - {name: prizes, visibility: hidden}\n"                                              // 12
    "components:\n"                                                                         // 13
    "  - {name: bid, kind: card, count: {option: cards, per_player: true}, zone: box,\n"    // 14
    "     faces: {from: 1, to: {option: cards}}}\n"                                         // 15
    "  - {name: prize, kind: card, count: {option: cards}, zone: prizes,\n"                 // 16
    "     faces: {from: 1, to: {option: cards}}}\n"                                         // 17
    "  - {name: die, kind: die, count: {option: dice, per_player: true}, zone: box,\n"      // 18
    "     faces: {from: 1, to: {option: sides}}, face: \"6\"}\n"                            // 19
    "  - {name: coin, kind: die, faces: [heads, tails], count: 2, zone: box}\n";            // 20

}  // namespace rulebook::test
