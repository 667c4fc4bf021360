#pragma once
// What a table tells a page before the game begins: how to draw this game
// (boards' sizes, component types and how each face looks, who plays each
// seat, the layout hints of display:) and the game's own images, which the
// page fetches by number.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/game_definition.hpp"
#include "core/ids.hpp"
#include "table/table.hpp"

namespace rulebook {

// Every image game.yaml's display: names, read once (the loader checked
// that they exist), each with its number.
class DisplayImages {
 public:
  DisplayImages() = default;
  explicit DisplayImages(const GameDefinition& def);
  // "display/N": where a page fetches the image of this file (relative to
  // the page, so that a table served under a prefix finds its own).
  std::string url(const std::string& file) const;
  // The bytes and MIME type of image `number`; null when there is none.
  const std::string* image(size_t number, std::string& type) const;

 private:
  std::vector<std::string> files_;  // as display: names them, relative to the game's folder
  std::vector<std::string> bytes_;
};

// The stream's first message, "table": `seat` is the reader's seat, or
// Seat::none() for the spectators.
nlohmann::json page_message(const TableConfig& config, const DisplayImages& images, Seat seat);

}  // namespace rulebook
