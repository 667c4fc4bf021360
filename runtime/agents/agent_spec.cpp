#include "agents/agent_spec.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>

#include <fmt/format.h>

#include "core/suggest.hpp"

namespace rulebook {
namespace {

using Type = AgentParam::Type;

AgentParam integer(std::string name, double min, std::string def, std::string help, double max = 1e9) {
  AgentParam p;
  p.name = std::move(name);
  p.type = Type::Integer;
  p.min = min;
  p.max = max;
  p.default_value = std::move(def);
  p.help = std::move(help);
  return p;
}

AgentParam number(std::string name, double min, bool exclusive, std::string def, std::string help,
                  double max = 1e6) {
  AgentParam p;
  p.name = std::move(name);
  p.type = Type::Number;
  p.min = min;
  p.min_exclusive = exclusive;
  p.max = max;
  p.default_value = std::move(def);
  p.help = std::move(help);
  return p;
}

AgentParam choice(std::string name, std::vector<std::string> choices, std::string def, std::string help) {
  AgentParam p;
  p.name = std::move(name);
  p.type = Type::Choice;
  p.choices = std::move(choices);
  p.default_value = std::move(def);
  p.help = std::move(help);
  return p;
}

AgentParam flag(std::string name, std::string help) {
  AgentParam p;
  p.name = std::move(name);
  p.type = Type::Flag;
  p.choices = {"0", "1"};
  p.default_value = "0";
  p.help = std::move(help);
  return p;
}

// The parameters of the search bots (runtime/search), shared by both kinds.
std::vector<AgentParam> search_params(bool mcts) {
  std::vector<AgentParam> params = {
      integer("iterations", 1, "1000", "simulations per decision", 1e8),
      number("seconds", 0, true, "", "time limit per decision; the first limit reached stops the search "
                                     "(the one exception to byte-identical logs)", 86400),
      number("c", 0, false, "1.4142135623730951", "UCB1 exploration constant (default sqrt 2)", 1000),
      choice("rollout", {"random", "greedy"}, "random", "how simulations play on after the tree"),
      integer("depth", 0, "0", "cut a rollout after N decisions and score it with the game's evaluation "
                               "(0: play to the end)", 1e6),
      flag("oracle", "1: search the true state instead of the seat's view -- CHEATING, for measuring "
                     "the value of information"),
      choice("hint", {"0", "1"}, "1", "1: sample with the game's hint (rules.deal_unseen) when it gives one, "
                                      "checked; 0: generic sampling only, to measure what the hint brings"),
  };
  if (mcts)
    params.push_back(integer("determinizations", 1, "10", "trees, one per determinization, on games with "
                                                           "hidden information (PIMC)", 1e5));
  return params;
}

std::vector<AgentKind> build_registry() {
  std::vector<AgentKind> kinds;
  kinds.push_back({"random", "uniform over the options", "", {}, false});
  kinds.push_back({"first", "always the first option", "", {}, false});
  kinds.push_back({"greedy", "tries each option one decision deep on its seat's determinized game and "
                             "keeps the best by the game's evaluation (ties: its own stream)", "", {}, false});
  kinds.push_back({"mcts", "UCT; on hidden information one tree per determinization (PIMC)", "",
                   search_params(true), false});
  kinds.push_back({"ismcts", "information-set MCTS: one tree over the seat's information sets", "",
                   search_params(false), false});
  kinds.push_back({"scripted", "answers from a file: option labels or 1-based numbers, one a line", "FILE", {},
                   false});
  kinds.push_back({"exec", "a program in any language speaking the bot protocol on its stdin/stdout "
                           "(docs/bot-protocol.md); no shell", "COMMAND", {}, false});
  kinds.push_back({"human", "a person at this terminal (rulebook play)", "", {}, true});
  return kinds;
}

std::string format_number(double v) {
  std::string s = fmt::format("{}", v);
  return s;
}

[[noreturn]] void fail(const std::string& text, const std::string& why) {
  throw AgentSpecError(fmt::format("agent '{}': {}", text, why));
}

std::string kind_names() {
  std::string out;
  for (const auto& k : agent_registry()) out += (out.empty() ? "" : ", ") + k.syntax();
  return out;
}

std::string param_list(const AgentKind& kind) {
  std::string out;
  for (const auto& p : kind.params) out += (out.empty() ? "" : "; ") + p.describe();
  return out;
}

// Checks `value` against `p`; returns it in canonical form.
std::string check_value(const std::string& text, const AgentKind& kind, const AgentParam& p, const std::string& value) {
  auto bad = [&](const std::string& expected) {
    fail(text, fmt::format("{}'s {} must be {}, got '{}'", kind.name, p.name, expected, value));
  };
  switch (p.type) {
    case Type::Integer: {
      const std::string expected = fmt::format("a whole number from {} to {}", format_number(p.min), format_number(p.max));
      if (value.empty() || value == "-" || value.size() > 12) bad(expected);
      for (size_t i = 0; i < value.size(); ++i)
        if (!(std::isdigit(static_cast<unsigned char>(value[i])) || (i == 0 && value[i] == '-'))) bad(expected);
      const long long n = std::strtoll(value.c_str(), nullptr, 10);
      if (static_cast<double>(n) < p.min || static_cast<double>(n) > p.max) bad(expected);
      return std::to_string(n);
    }
    case Type::Number: {
      const std::string expected = fmt::format("a number {} {} (at most {})", p.min_exclusive ? ">" : ">=",
                                               format_number(p.min), format_number(p.max));
      char* end = nullptr;
      errno = 0;
      const double v = value.empty() ? NAN : std::strtod(value.c_str(), &end);
      if (value.empty() || !end || *end != '\0' || errno || !std::isfinite(v)) bad(expected);
      if (v < p.min || (p.min_exclusive && v == p.min) || v > p.max) bad(expected);
      return value;
    }
    case Type::Choice:
    case Type::Flag: {
      for (const auto& c : p.choices)
        if (c == value) return value;
      std::string list;
      for (const auto& c : p.choices) list += (list.empty() ? "" : " or ") + c;
      bad(list);
    }
  }
  return value;
}

}  // namespace

std::string AgentParam::describe() const {
  std::string what;
  switch (type) {
    case Type::Integer:
      what = fmt::format("{}=N (whole number >= {}", name, format_number(min));
      break;
    case Type::Number:
      what = fmt::format("{}=X (number {} {}", name, min_exclusive ? ">" : ">=", format_number(min));
      break;
    case Type::Choice:
    case Type::Flag: {
      std::string list;
      for (const auto& c : choices) list += (list.empty() ? "" : "|") + c;
      what = fmt::format("{}={} (", name, list);
      break;
    }
  }
  const bool open = what.back() == '(';
  if (!default_value.empty())
    what += fmt::format("{}default {}", open ? "" : "; ", name == "c" ? "sqrt 2" : default_value);
  else if (open)
    what.resize(what.size() - 2);  // no default: drop " ("
  if (what.back() != ')' && what.find('(') != std::string::npos) what += ")";
  return what;
}

std::string AgentKind::syntax() const {
  if (!argument.empty()) return name + ":" + argument;
  if (!params.empty()) return name + "[:key=value,...]";
  return name;
}

const std::vector<AgentKind>& agent_registry() {
  static const std::vector<AgentKind> kinds = build_registry();
  return kinds;
}

const AgentKind* find_agent_kind(const std::string& name) {
  for (const auto& k : agent_registry())
    if (k.name == name) return &k;
  return nullptr;
}

AgentSpec parse_agent_spec(const std::string& text) {
  AgentSpec spec;
  spec.text = text;
  const size_t colon = text.find(':');
  spec.kind = text.substr(0, colon);
  const AgentKind* kind = find_agent_kind(spec.kind);
  if (!kind) {
    std::vector<std::string> names;
    for (const auto& k : agent_registry()) names.push_back(k.name);
    throw AgentSpecError(fmt::format("unknown agent '{}'{} (kinds: {})", spec.kind, did_you_mean(spec.kind, names),
                                     kind_names()));
  }
  const std::string rest = colon == std::string::npos ? std::string() : text.substr(colon + 1);
  if (!kind->argument.empty()) {
    if (rest.empty())
      fail(text, fmt::format("{} needs its {}: {}", kind->name, kind->argument, kind->syntax()));
    spec.argument = rest;
    return spec;
  }
  for (const auto& p : kind->params)
    if (!p.default_value.empty()) spec.values[p.name] = p.default_value;
  if (colon == std::string::npos) return spec;
  if (kind->params.empty()) fail(text, fmt::format("{} takes no parameters", kind->name));
  if (rest.empty()) fail(text, fmt::format("nothing after '{}:' (parameters: {})", kind->name, param_list(*kind)));
  std::vector<std::string> given;
  size_t start = 0;
  while (start <= rest.size()) {
    const size_t comma = rest.find(',', start);
    const std::string item = rest.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    start = comma == std::string::npos ? rest.size() + 1 : comma + 1;
    const size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0)
      fail(text, fmt::format("expected key=value, got '{}' (parameters of {}: {})", item, kind->name, param_list(*kind)));
    const std::string key = item.substr(0, eq), value = item.substr(eq + 1);
    const AgentParam* param = nullptr;
    std::vector<std::string> names;
    for (const auto& p : kind->params) {
      names.push_back(p.name);
      if (p.name == key) param = &p;
    }
    if (!param)
      fail(text, fmt::format("{} has no parameter '{}'{} (parameters: {})", kind->name, key, did_you_mean(key, names),
                             param_list(*kind)));
    for (const auto& g : given)
      if (g == key) fail(text, fmt::format("{} is given twice", key));
    given.push_back(key);
    spec.values[key] = check_value(text, *kind, *param, value);
  }
  return spec;
}

int AgentSpec::integer(const std::string& name) const { return static_cast<int>(std::strtoll(values.at(name).c_str(), nullptr, 10)); }
double AgentSpec::number(const std::string& name) const { return std::strtod(values.at(name).c_str(), nullptr); }
const std::string& AgentSpec::choice(const std::string& name) const { return values.at(name); }
bool AgentSpec::flag(const std::string& name) const { return values.at(name) == "1"; }

std::string AgentSpec::label() const { return cheats() ? text + " (cheating: oracle)" : text; }

std::string describe_agent_kinds(const std::string& indent) {
  std::string out;
  for (const auto& k : agent_registry()) {
    out += fmt::format("{}{}: {}\n", indent, k.syntax(), k.summary);
    for (const auto& p : k.params) out += fmt::format("{}    {}: {}\n", indent, p.describe(), p.help);
  }
  return out;
}

}  // namespace rulebook
