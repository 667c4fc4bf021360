#pragma once
// The lines of the rule scripts that ran, recorded by the budget's line
// hook when a RuleEngine is asked for them.
#include <map>
#include <set>
#include <string>

namespace rulebook {

// The lines of the rule scripts that ran, by chunk ("rules/x/rules.lua"):
// what mutation testing needs to know which scenarios reach a change.
struct LineCoverage {
  std::map<std::string, std::set<int>> lines;
  // Every script file the sandbox's loader opened (the rules, its variants'
  // scripts, each module `require` read), as the path it opened: the
  // scripts the game loads, which are the ones worth mutating.
  std::set<std::string> files;
  // The last chunk seen, so that the line hook rarely looks a name up.
  const void* last_source = nullptr;
  std::set<int>* last_lines = nullptr;
};

}  // namespace rulebook
