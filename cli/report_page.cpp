#include "cli/report_page.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "analysis/game_metrics.hpp"

namespace rulebook::cli {
namespace {

using Json = nlohmann::json;

std::string esc(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

// A figure of the JSON at `pointer`, shown as `text`.
std::string figure(const Json& report, const std::string& pointer, const std::string& text) {
  const Json& v = report.at(Json::json_pointer(pointer));
  return fmt::format("<span data-json=\"{}\" data-value=\"{}\">{}</span>", esc(pointer), esc(v.dump()), esc(text));
}
std::string percent(const Json& report, const std::string& pointer) {
  return figure(report, pointer, fmt::format("{:.1f}%", report.at(Json::json_pointer(pointer)).get<double>() * 100));
}
std::string number(const Json& report, const std::string& pointer, int decimals = 2) {
  return figure(report, pointer, fmt::format("{:.{}f}", report.at(Json::json_pointer(pointer)).get<double>(), decimals));
}
// "12.3% [10.1%, 14.2%]" or "2.31 [2.10, 2.52]" of an {estimate, low, high} at `pointer`.
std::string interval(const Json& report, const std::string& pointer, bool as_percent, int decimals = 2) {
  auto one = [&](const char* key) {
    return as_percent ? percent(report, pointer + "/" + key) : number(report, pointer + "/" + key, decimals);
  };
  return fmt::format("{} [{}, {}]", one("estimate"), one("low"), one("high"));
}

constexpr const char* kSideColours[] = {"#4e79a7", "#e15759"};

// Win rates by seat, each side's bar with its interval, the fair rate dashed.
std::string win_rate_svg(const Json& r) {
  const int players = r["players"].get<int>();
  const size_t sides = r["sides"].size();
  const double width = 120.0 * players + 60, height = 220, top = 20, bottom = 190, left = 40;
  double highest = 0.1;
  for (const auto& side : r["sides"])
    for (const auto& seat : side["seats"]) highest = std::max(highest, seat["win_rate"]["high"].get<double>());
  highest = std::min(1.0, std::ceil(highest * 10) / 10);
  auto y = [&](double rate) { return bottom - (bottom - top) * rate / highest; };
  std::string svg = fmt::format(R"(<svg class="plot" viewBox="0 0 {} {}" width="{}" height="{}" role="img" aria-label="win rate by seat">)",
                                width, height, width, height);
  for (int tick = 0; tick <= 4; ++tick) {
    const double rate = highest * tick / 4;
    svg += fmt::format(R"(<line x1="{}" x2="{}" y1="{:.1f}" y2="{:.1f}" class="grid"/><text x="{}" y="{:.1f}" class="axis" text-anchor="end">{:.0f}%</text>)",
                       left, width - 10, y(rate), y(rate), left - 4, y(rate) + 4, rate * 100);
  }
  for (size_t k = 0; k < sides; ++k) {
    const auto& side = r["sides"][k];
    const double fair = side["fair_win_rate"].get<double>();
    svg += fmt::format(R"(<line x1="{}" x2="{}" y1="{:.1f}" y2="{:.1f}" stroke="{}" stroke-dasharray="5,4" class="fair"><title>fair rate {:.1f}%</title></line>)",
                       left, width - 10, y(fair), y(fair), kSideColours[k], fair * 100);
    for (int s = 0; s < players; ++s) {
      const auto& rate = side["seats"][static_cast<size_t>(s)]["win_rate"];
      const double x = left + 20 + 120.0 * s + 45.0 * static_cast<double>(k);
      svg += fmt::format(R"(<rect x="{:.1f}" y="{:.1f}" width="36" height="{:.1f}" fill="{}" opacity="0.8"><title>{} seat {}: {:.1f}%</title></rect>)",
                         x, y(rate["estimate"].get<double>()), bottom - y(rate["estimate"].get<double>()), kSideColours[k],
                         esc(side["name"].get<std::string>()), s, rate["estimate"].get<double>() * 100);
      svg += fmt::format(R"(<line x1="{0:.1f}" x2="{0:.1f}" y1="{1:.1f}" y2="{2:.1f}" class="whisker"/>)", x + 18,
                         y(rate["low"].get<double>()), y(rate["high"].get<double>()));
    }
  }
  for (int s = 0; s < players; ++s)
    svg += fmt::format(R"(<text x="{:.1f}" y="{}" class="axis" text-anchor="middle">seat {}</text>)",
                       left + 20 + 120.0 * s + 22.5 * static_cast<double>(sides), bottom + 16, s);
  return svg + "</svg>";
}

// Games by length in turns, each side's histogram as a line of its bins.
std::string length_svg(const Json& r) {
  const double width = 560, height = 200, left = 40, right = 550, top = 15, bottom = 170;
  int64_t lowest = INT64_MAX, highest = 0, most = 1;
  for (const auto& side : r["sides"])
    for (const auto& bin : side["turns"]["histogram"]) {
      lowest = std::min(lowest, bin["from"].get<int64_t>());
      highest = std::max(highest, bin["to"].get<int64_t>());
      most = std::max(most, bin["games"].get<int64_t>());
    }
  if (lowest > highest) return "";
  auto x = [&](double turns) { return left + (right - left) * (turns - lowest) / std::max<double>(1, highest + 1 - lowest); };
  auto y = [&](double games) { return bottom - (bottom - top) * games / most; };
  std::string svg = fmt::format(R"(<svg class="plot" viewBox="0 0 {} {}" width="{}" height="{}" role="img" aria-label="games by length">)",
                                width, height, width, height);
  svg += fmt::format(R"(<line x1="{}" x2="{}" y1="{}" y2="{}" class="grid"/>)", left, right, bottom, bottom);
  for (size_t k = 0; k < r["sides"].size(); ++k) {
    std::string points = fmt::format("{:.1f},{:.1f}", x(static_cast<double>(lowest)), y(0));
    for (const auto& bin : r["sides"][k]["turns"]["histogram"]) {
      const double games = static_cast<double>(bin["games"].get<int64_t>());
      points += fmt::format(" {:.1f},{:.1f} {:.1f},{:.1f}", x(static_cast<double>(bin["from"].get<int64_t>())), y(games),
                            x(static_cast<double>(bin["to"].get<int64_t>() + 1)), y(games));
    }
    points += fmt::format(" {:.1f},{:.1f}", x(static_cast<double>(highest + 1)), y(0));
    svg += fmt::format(R"(<polyline points="{}" fill="{}" fill-opacity="0.25" stroke="{}" stroke-width="1.5"/>)", points,
                       kSideColours[k], kSideColours[k]);
  }
  for (int tick = 0; tick <= 4; ++tick) {
    const double turns = static_cast<double>(lowest) + static_cast<double>(highest + 1 - lowest) * tick / 4;
    svg += fmt::format(R"(<text x="{:.1f}" y="{}" class="axis" text-anchor="middle">{:.0f}</text>)", x(turns), bottom + 16, turns);
  }
  svg += fmt::format(R"(<text x="{}" y="{}" class="axis" text-anchor="middle">turns</text>)", (left + right) / 2, bottom + 29);
  return svg + "</svg>";
}

// The skill curve: win rate by budget (log scale) with intervals, the fair rate dashed.
std::string skill_svg(const Json& skill) {
  const auto& points = skill["points"];
  if (points.empty()) return "";
  const double width = 560, height = 220, left = 50, right = 530, top = 15, bottom = 180;
  const double first = std::log2(points.front()["budget"].get<double>()),
               last = std::log2(points.back()["budget"].get<double>());
  double highest = skill["fair_win_rate"].get<double>();
  for (const auto& p : points) highest = std::max(highest, p["win_rate"]["high"].get<double>());
  highest = std::min(1.0, std::ceil(highest * 10) / 10);
  auto x = [&](double budget) {
    return last > first ? left + (right - left) * (std::log2(budget) - first) / (last - first) : (left + right) / 2;
  };
  auto y = [&](double rate) { return bottom - (bottom - top) * rate / highest; };
  std::string svg = fmt::format(R"(<svg class="plot" viewBox="0 0 {} {}" width="{}" height="{}" role="img" aria-label="skill curve">)",
                                width, height, width, height);
  for (int tick = 0; tick <= 4; ++tick) {
    const double rate = highest * tick / 4;
    svg += fmt::format(R"(<line x1="{}" x2="{}" y1="{:.1f}" y2="{:.1f}" class="grid"/><text x="{}" y="{:.1f}" class="axis" text-anchor="end">{:.0f}%</text>)",
                       left, right, y(rate), y(rate), left - 4, y(rate) + 4, rate * 100);
  }
  const double fair = skill["fair_win_rate"].get<double>();
  svg += fmt::format(R"(<line x1="{}" x2="{}" y1="{:.1f}" y2="{:.1f}" stroke="#777" stroke-dasharray="5,4"><title>fair rate</title></line>)",
                     left, right, y(fair), y(fair));
  std::string line;
  for (const auto& p : points) {
    const double b = p["budget"].get<double>();
    line += fmt::format("{:.1f},{:.1f} ", x(b), y(p["win_rate"]["estimate"].get<double>()));
    svg += fmt::format(R"(<line x1="{0:.1f}" x2="{0:.1f}" y1="{1:.1f}" y2="{2:.1f}" class="whisker"/><circle cx="{0:.1f}" cy="{3:.1f}" r="4" fill="{4}"/><text x="{0:.1f}" y="{5}" class="axis" text-anchor="middle">{6}</text>)",
                       x(b), y(p["win_rate"]["low"].get<double>()), y(p["win_rate"]["high"].get<double>()),
                       y(p["win_rate"]["estimate"].get<double>()), kSideColours[0], bottom + 16, p["budget"].get<int>());
  }
  svg += fmt::format(R"(<polyline points="{}" fill="none" stroke="{}" stroke-width="2"/>)", line, kSideColours[0]);
  if (!skill["levels_off_at"].is_null())
    svg += fmt::format(R"(<line x1="{0:.1f}" x2="{0:.1f}" y1="{1}" y2="{2}" stroke="#59a14f" stroke-width="2"><title>levels off</title></line>)",
                       x(skill["levels_off_at"].get<double>()), top, bottom);
  svg += fmt::format(R"(<text x="{}" y="{}" class="axis" text-anchor="middle">iterations of the search agent</text>)",
                     (left + right) / 2, bottom + 30);
  return svg + "</svg>";
}

constexpr const char* kStyle = R"(
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:#222;max-width:980px;margin:24px auto;padding:0 16px}
h1{font-size:1.6em;margin:.2em 0}h2{font-size:1.2em;margin-top:1.6em;border-bottom:1px solid #ddd}
.verdict{font-size:1.15em;background:#f3f6fa;border-left:5px solid #4e79a7;padding:10px 14px}
table{border-collapse:collapse;margin:.5em 0}td,th{padding:3px 10px;border-bottom:1px solid #eee;text-align:left;vertical-align:top}
th{font-weight:600}.sig{font-weight:600;color:#b03030}.muted{color:#777;font-size:.9em}
.plot .grid{stroke:#e5e5e5}.plot .axis{font-size:11px;fill:#555}.plot .whisker{stroke:#222;stroke-width:1.5}
.key span{display:inline-block;width:12px;height:12px;margin:0 4px 0 12px;vertical-align:middle}
code{background:#f4f4f4;padding:1px 4px}
)";

}  // namespace

std::string report_page(const Json& r) {
  const bool with = r["sides"].size() > 1;
  std::string h = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">";
  h += fmt::format("<title>{} — rulebook report</title><style>{}</style></head><body>\n", esc(r["title"].get<std::string>()), kStyle);
  h += fmt::format("<h1>{}: {}</h1>\n", esc(r["title"].get<std::string>()),
                   with ? esc(r["sides"][1]["description"].get<std::string>()) + " against the game as written"
                        : std::string("the game as written"));
  h += fmt::format("<p class=\"verdict\" id=\"verdict\"><strong>Verdict:</strong> {}</p>\n", esc(r["verdict"].get<std::string>()));
  h += "<ul id=\"findings\">";
  for (const auto& f : r["findings"]) h += fmt::format("<li data-topic=\"{}\">{}</li>", esc(f["topic"].get<std::string>()), esc(f["text"].get<std::string>()));
  h += "</ul>\n";
  std::string key = "<p class=\"key\">";
  for (size_t k = 0; k < r["sides"].size(); ++k)
    key += fmt::format("<span style=\"background:{}\"></span>{}: {}", kSideColours[k], k == 0 ? "base" : "with",
                       esc(r["sides"][k]["description"].get<std::string>()));
  key += "</p>";

  h += "<h2>Who wins</h2>" + key + win_rate_svg(r) + "\n<table id=\"win-rates\"><tr><th>seat</th>";
  for (const auto& side : r["sides"]) h += fmt::format("<th>{}</th>", esc(side["name"].get<std::string>()));
  if (with) h += "<th>difference (with − base)</th>";
  h += "</tr>";
  for (int s = 0; s < r["players"].get<int>(); ++s) {
    h += fmt::format("<tr><td>seat {}</td>", s);
    for (size_t k = 0; k < r["sides"].size(); ++k)
      h += "<td>" + interval(r, fmt::format("/sides/{}/seats/{}/win_rate", k, s), true) + "</td>";
    if (with) {
      const std::string p = fmt::format("/differences/win_rate_by_seat/{}", s);
      h += fmt::format("<td class=\"{}\">{}</td>", r.at(Json::json_pointer(p + "/significant")).get<bool>() ? "sig" : "",
                       interval(r, p + "/difference", true));
    }
    h += "</tr>";
  }
  h += "<tr><td>fair rate</td>";
  for (size_t k = 0; k < r["sides"].size(); ++k) h += "<td>" + percent(r, fmt::format("/sides/{}/fair_win_rate", k)) + "</td>";
  h += "</tr></table>\n";

  h += "<h2>How long</h2>" + key + length_svg(r) + "\n<table id=\"length\"><tr><th></th>";
  for (const auto& side : r["sides"]) h += fmt::format("<th>{}</th>", esc(side["name"].get<std::string>()));
  if (with) h += "<th>difference</th>";
  h += "</tr><tr><td>mean turns</td>";
  for (size_t k = 0; k < r["sides"].size(); ++k) h += "<td>" + interval(r, fmt::format("/sides/{}/turns/mean", k), false, 1) + "</td>";
  if (with) h += "<td>" + interval(r, "/differences/mean_turns/difference", false, 2) + "</td>";
  h += "</tr><tr><td>median turns</td>";
  for (size_t k = 0; k < r["sides"].size(); ++k)
    h += "<td>" + number(r, fmt::format("/sides/{}/turns/quantiles/median/estimate", k), 0) + "</td>";
  h += "</tr></table>\n";

  if (r["sides"][0].contains("returns")) {  // only for a game whose rules give returns
    h += "<h2>Returns</h2><p class=\"muted\">Each seat's mean return (the game's own payoff, "
         "<code>game:finish{returns = ...}</code>) with its 95% interval; the difference is paired game by game.</p>"
         "\n<table id=\"returns\"><tr><th>seat</th>";
    for (const auto& side : r["sides"]) h += fmt::format("<th>{}</th>", esc(side["name"].get<std::string>()));
    if (with) h += "<th>difference (with − base)</th>";
    h += "</tr>";
    for (int s = 0; s < r["players"].get<int>(); ++s) {
      h += fmt::format("<tr><td>seat {}</td>", s);
      for (size_t k = 0; k < r["sides"].size(); ++k) {
        const std::string p = fmt::format("/sides/{}/returns/by_seat/{}", k, s);
        h += r["sides"][k].contains("returns")
                 ? fmt::format("<td>{} [{}, {}]</td>", number(r, p + "/mean"), number(r, p + "/low"), number(r, p + "/high"))
                 : std::string("<td>—</td>");
      }
      if (with && r["differences"].contains("returns")) {
        const std::string p = fmt::format("/differences/returns/by_seat/{}", s);
        h += fmt::format("<td class=\"{}\">{}</td>", r.at(Json::json_pointer(p + "/significant")).get<bool>() ? "sig" : "",
                         interval(r, p + "/difference", false));
      }
      h += "</tr>";
    }
    h += "</table>\n";
  }

  h += "<h2>How it feels</h2><p class=\"muted\">Each metric is computed per game from every position's evaluation "
       "(the rules' <code>rules.evaluate</code>, else the scores; the final position by the returns where the game "
       "gives them): the mean over games with its 95% interval; the "
       "difference is paired game by game on the same seeds. docs/judging-a-rule.md defines each.</p>\n";
  h += "<table id=\"metrics\"><tr><th>metric</th>";
  for (const auto& side : r["sides"]) h += fmt::format("<th>{}</th>", esc(side["name"].get<std::string>()));
  if (with) h += "<th>difference (with − base)</th>";
  h += "</tr>";
  std::vector<std::string> names = r["metric_names"].get<std::vector<std::string>>();
  for (const auto& [name, tally] : r["sides"][0]["metrics"].items())
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  for (const auto& name : names) {
    bool any = false;
    for (const auto& side : r["sides"]) any = any || side["metrics"].contains(name);
    if (!any) continue;
    const auto* info = analysis::metric_info(name);
    const bool share = info && std::string(info->unit) == "share";
    h += fmt::format("<tr><td title=\"{}\">{}</td>", esc(info ? info->words : ""), esc(name));
    for (size_t k = 0; k < r["sides"].size(); ++k)
      h += "<td>" + (r["sides"][k]["metrics"].contains(name)
                         ? interval(r, fmt::format("/sides/{}/metrics/{}/mean", k, name), share)
                         : std::string("—")) + "</td>";
    if (with) {
      const std::string p = "/differences/metrics/" + name;
      h += r["differences"]["metrics"].contains(name)
               ? fmt::format("<td class=\"{}\">{}</td>", r.at(Json::json_pointer(p + "/significant")).get<bool>() ? "sig" : "",
                             interval(r, p + "/difference", share))
               : std::string("<td>—</td>");
    }
    h += "</tr>";
  }
  h += "</table>\n";

  if (r.contains("skill")) {
    const auto& skill = r["skill"];
    h += "<h2>Does skill pay</h2>" + skill_svg(skill);
    h += fmt::format("<p>{}</p><p class=\"muted\">{} against {} in the other seats, {} games a budget; the skill trace "
                     "took {} s of the report's time (cost grows with the budgets).</p>\n",
                     esc(skill["text"].get<std::string>()), esc(skill["searcher"].get<std::string>()),
                     esc(skill["baseline"].get<std::string>()), skill["games_per_budget"].get<int64_t>(),
                     number(r, "/skill/seconds", 1));
    h += "<table id=\"skill\"><tr><th>iterations</th><th>win rate</th></tr>";
    for (size_t k = 0; k < skill["points"].size(); ++k)
      h += fmt::format("<tr><td>{}</td><td>{}</td></tr>", skill["points"][k]["budget"].get<int>(),
                       interval(r, fmt::format("/skill/points/{}/win_rate", k), true));
    h += "</table>\n";
  }

  if (r.contains("people")) {
    const auto& people = r["people"];
    h += fmt::format("<h2>People beside bots</h2><p>{}</p>", esc(people["text"].get<std::string>()));
    h += "<table id=\"people\"><tr><th>figure</th><th>people</th><th>bots</th><th>difference (people − bots)</th></tr>";
    for (size_t k = 0; k < people["figures"].size(); ++k) {
      const std::string p = fmt::format("/people/figures/{}", k);
      const auto& f = people["figures"][k];
      const bool share = f["unit"] == "share";
      h += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td class=\"{}\">{}</td></tr>", esc(f["name"].get<std::string>()),
                       interval(r, p + "/people", share), interval(r, p + "/bots", share),
                       f["significant"].get<bool>() ? "sig" : "", interval(r, p + "/difference", share));
    }
    h += "</table>\n";
  }

  h += "<h2>Where this comes from</h2><table id=\"provenance\">";
  h += fmt::format("<tr><th>command</th><td><code>{}</code></td></tr>", esc(r["command"].get<std::string>()));
  h += fmt::format("<tr><th>rulebook</th><td>{}</td></tr>", esc(r["rulebook_version"].get<std::string>()));
  for (const auto& side : r["sides"])
    h += fmt::format("<tr><th>rules ({})</th><td><code>{}</code></td></tr>", esc(side["name"].get<std::string>()),
                     esc(side["rules_hash"].get<std::string>()));
  std::string agents;
  for (const auto& a : r["agents"]) agents += (agents.empty() ? "" : ", ") + a.get<std::string>();
  h += fmt::format("<tr><th>games</th><td>{} a side, seeds from {} (game i of each side plays the same seed), agents by seat: {}</td></tr>",
                   figure(r, "/games", std::to_string(r["games"].get<int64_t>())), r["seed"].get<uint64_t>(), esc(agents));
  h += fmt::format("<tr><th>time</th><td>{} s on {} job{}</td></tr></table>\n", number(r, "/seconds", 1),
                   r["jobs"].get<int>(), r["jobs"].get<int>() == 1 ? "" : "s");
  std::string data = r.dump();
  for (size_t at = data.find("</"); at != std::string::npos; at = data.find("</", at + 2)) data.replace(at, 2, "<\\/");
  h += "<script type=\"application/json\" id=\"report-data\">" + data + "</script>\n</body></html>\n";
  return h;
}

}  // namespace rulebook::cli
