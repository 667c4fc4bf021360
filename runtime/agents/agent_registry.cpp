#include "agents/agent_registry.hpp"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <stdexcept>

#include <fmt/format.h>

#include "core/suggest.hpp"

namespace rulebook {
namespace {

using Type = AgentParam::Type;

std::string format_number(double v) { return fmt::format("{}", v); }

[[noreturn]] void fail(const std::string& text, const std::string& why) {
  throw AgentSpecError(fmt::format("agent '{}': {}", text, why));
}

std::string param_list(const AgentKind& kind) {
  std::string out;
  for (const auto& p : kind.params) out += (out.empty() ? "" : "; ") + p.describe();
  return out;
}

std::vector<std::string> param_names(const AgentKind& kind) {
  std::vector<std::string> names;
  for (const auto& p : kind.params) names.push_back(p.name);
  return names;
}

AgentParam make_param(std::string name, Type type, std::string default_value, std::string help) {
  AgentParam p;
  p.name = std::move(name);
  p.type = type;
  p.default_value = std::move(default_value);
  p.help = std::move(help);
  return p;
}

}  // namespace

AgentParam AgentParam::integer(std::string name, double min, double max, std::string default_value, std::string help) {
  AgentParam p = make_param(std::move(name), Type::Integer, std::move(default_value), std::move(help));
  p.min = min;
  p.max = max;
  return p;
}

AgentParam AgentParam::number(std::string name, double min, bool min_exclusive, double max, std::string default_value,
                              std::string help) {
  AgentParam p = make_param(std::move(name), Type::Number, std::move(default_value), std::move(help));
  p.min = min;
  p.min_exclusive = min_exclusive;
  p.max = max;
  return p;
}

AgentParam AgentParam::choice(std::string name, std::vector<std::string> choices, std::string default_value,
                              std::string help) {
  AgentParam p = make_param(std::move(name), Type::Choice, std::move(default_value), std::move(help));
  p.choices = std::move(choices);
  return p;
}

AgentParam AgentParam::flag(std::string name, std::string help) {
  AgentParam p = make_param(std::move(name), Type::Flag, "0", std::move(help));
  p.choices = {"0", "1"};
  return p;
}

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
    case Type::Flag:
      what = fmt::format("{}={} (", name, fmt::join(choices, "|"));
      break;
  }
  const bool open = what.back() == '(';
  if (!default_value.empty())
    what += fmt::format("{}default {}", open ? "" : "; ", default_shown.empty() ? default_value : default_shown);
  else if (open)
    what.resize(what.size() - 2);  // no default: drop " ("
  if (what.back() != ')' && what.find('(') != std::string::npos) what += ")";
  return what;
}

std::string AgentParam::expected() const {
  switch (type) {
    case Type::Integer:
      return fmt::format("a whole number from {} to {}", format_number(min), format_number(max));
    case Type::Number:
      return fmt::format("a number {} {} (at most {})", min_exclusive ? ">" : ">=", format_number(min),
                         format_number(max));
    case Type::Choice:
    case Type::Flag:
      break;
  }
  return fmt::format("{}", fmt::join(choices, " or "));
}

std::string AgentParam::check(const std::string& value, const std::string& kind, const std::string& where) const {
  auto bad = [&](const std::string& hint = "") {
    fail(where, fmt::format("{}'s {} must be {}, got '{}'{}", kind, name, expected(), value, hint));
  };
  switch (type) {
    case Type::Integer: {
      if (value.empty() || value == "-" || value.size() > 12) bad();
      for (size_t i = 0; i < value.size(); ++i)
        if (!(std::isdigit(static_cast<unsigned char>(value[i])) || (i == 0 && value[i] == '-'))) bad();
      const long long n = std::strtoll(value.c_str(), nullptr, 10);
      if (static_cast<double>(n) < min || static_cast<double>(n) > max) bad();
      return std::to_string(n);
    }
    case Type::Number: {
      char* end = nullptr;
      errno = 0;
      const double v = value.empty() ? NAN : std::strtod(value.c_str(), &end);
      if (value.empty() || !end || *end != '\0' || errno || !std::isfinite(v)) bad();
      if (v < min || (min_exclusive && v == min) || v > max) bad();
      return value;
    }
    case Type::Choice:
    case Type::Flag:
      for (const auto& c : choices)
        if (c == value) return value;
      bad(did_you_mean(value, choices));
  }
  return value;
}

std::string AgentKind::syntax() const {
  if (!argument.empty()) return name + ":" + argument;
  if (!params.empty()) return name + "[:key=value,...]";
  return name;
}

const AgentParam* AgentKind::param(const std::string& key) const {
  for (const auto& p : params)
    if (p.name == key) return &p;
  return nullptr;
}

AgentRegistry& AgentRegistry::add(AgentKind kind) {
  if (kind.name.empty() || kind.name.find_first_of(":=,") != std::string::npos)
    throw std::logic_error(fmt::format("agent kind '{}': a name is a word without ':', '=' or ','", kind.name));
  if (find(kind.name)) throw std::logic_error(fmt::format("agent kind '{}' is declared twice", kind.name));
  if (!kind.build && !kind.terminal_only)
    throw std::logic_error(fmt::format("agent kind '{}' has no builder", kind.name));
  if (!kind.argument.empty() && !kind.params.empty())
    throw std::logic_error(fmt::format("agent kind '{}' takes both a free-text argument and parameters", kind.name));
  for (size_t i = 0; i < kind.params.size(); ++i) {
    const AgentParam& p = kind.params[i];
    for (size_t j = 0; j < i; ++j)
      if (kind.params[j].name == p.name)
        throw std::logic_error(fmt::format("agent kind '{}' declares parameter '{}' twice", kind.name, p.name));
    try {
      if (!p.default_value.empty()) p.check(p.default_value, kind.name, kind.name);  // a default in its own range
    } catch (const AgentSpecError& e) {
      throw std::logic_error(e.what());
    }
  }
  kinds_.push_back(std::move(kind));
  return *this;
}

const AgentKind* AgentRegistry::find(const std::string& name) const {
  for (const auto& k : kinds_)
    if (k.name == name) return &k;
  return nullptr;
}

AgentSpec AgentRegistry::parse(const std::string& text) const {
  AgentSpec spec;
  spec.text = text;
  const size_t colon = text.find(':');
  spec.kind = text.substr(0, colon);
  const AgentKind* kind = find(spec.kind);
  if (!kind) {
    std::vector<std::string> names, syntaxes;
    for (const auto& k : kinds_) {
      names.push_back(k.name);
      syntaxes.push_back(k.syntax());
    }
    throw AgentSpecError(fmt::format("unknown agent '{}'{} (kinds: {})", spec.kind, did_you_mean(spec.kind, names),
                                     fmt::join(syntaxes, ", ")));
  }
  const std::string rest = colon == std::string::npos ? std::string() : text.substr(colon + 1);
  if (!kind->argument.empty()) {
    if (rest.empty()) fail(text, fmt::format("{} needs its {}: {}", kind->name, kind->argument, kind->syntax()));
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
    const AgentParam* param = kind->param(key);
    if (!param)
      fail(text, fmt::format("{} has no parameter '{}'{} (parameters: {})", kind->name, key,
                             did_you_mean(key, param_names(*kind)), param_list(*kind)));
    for (const auto& g : given)
      if (g == key) fail(text, fmt::format("{} is given twice", key));
    given.push_back(key);
    spec.values[key] = param->check(value, kind->name, text);
  }
  return spec;
}

std::unique_ptr<Agent> AgentRegistry::build(const AgentSpec& spec, const AgentSettings& settings) const {
  const AgentKind* kind = find(spec.kind);
  if (!kind) return build(parse(spec.text), settings);  // not made by parse(): parse() says what is wrong
  if (!kind->build)
    throw AgentSpecError(fmt::format("agent '{}': {} is only available at a terminal (rulebook play)", spec.text,
                                     spec.kind));
  return kind->build(spec, settings);
}

std::string AgentRegistry::describe(const std::string& indent) const {
  std::string out;
  for (const auto& k : kinds_) {
    out += fmt::format("{}{}: {}\n", indent, k.syntax(), k.summary);
    for (const auto& p : k.params) out += fmt::format("{}    {}: {}\n", indent, p.describe(), p.help);
  }
  return out;
}

std::string AgentRegistry::markdown() const {
  auto value_of = [](const AgentParam& p) {
    switch (p.type) {
      case Type::Integer:
        return fmt::format("whole number from {} to {}", format_number(p.min), format_number(p.max));
      case Type::Number:
        return fmt::format("number {} {}, at most {}", p.min_exclusive ? ">" : ">=", format_number(p.min),
                           format_number(p.max));
      case Type::Choice:
      case Type::Flag:
        break;
    }
    std::vector<std::string> quoted;
    for (const auto& c : p.choices) quoted.push_back("`" + c + "`");
    return fmt::format("{}", fmt::join(quoted, " or "));
  };
  std::string out = "| kind | what it does | parameters |\n| --- | --- | --- |\n";
  for (const auto& k : kinds_) {
    std::string params = !k.argument.empty() ? "the " + k.argument : k.params.empty() ? "none" : "below";
    out += fmt::format("| `{}` | {} | {} |\n", k.syntax(), k.summary, params);
  }
  for (const auto& k : kinds_) {
    if (k.params.empty()) continue;
    out += fmt::format("\nParameters of `{}`:\n\n| key | value | default | meaning |\n| --- | --- | --- | --- |\n", k.name);
    for (const auto& p : k.params) {
      const std::string def = p.default_value.empty() ? "none" : p.default_shown.empty() ? p.default_value : p.default_shown;
      out += fmt::format("| `{}` | {} | {} | {} |\n", p.name, value_of(p), def, p.help);
    }
  }
  return out;
}

int AgentSpec::integer(const std::string& name) const {
  return static_cast<int>(std::strtoll(values.at(name).c_str(), nullptr, 10));
}
double AgentSpec::number(const std::string& name) const { return std::strtod(values.at(name).c_str(), nullptr); }
const std::string& AgentSpec::choice(const std::string& name) const { return values.at(name); }
bool AgentSpec::flag(const std::string& name) const { return values.at(name) == "1"; }

std::string AgentSpec::label() const { return cheats() ? text + " (cheating: oracle)" : text; }

}  // namespace rulebook
