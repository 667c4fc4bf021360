#include "agents/agent.hpp"

#include <cstring>

#include <algorithm>
#include <cctype>
#include <sstream>

#include <fmt/format.h>
#include <nettle/sha2.h>

#include "core/input_file.hpp"

namespace rulebook {
namespace {

std::string lower(std::string s) {
  for (auto& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return s;
}

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\r\n"), e = s.find_last_not_of(" \t\r\n");
  return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

}  // namespace

std::string option_list(const Decision& d) {
  std::string out;
  for (int i = 0; i < d.count(); ++i) out += (i ? ", " : "") + d.label(i);
  return out;
}

int match_answer(const Decision& d, const std::string& raw) {
  const std::string answer = trim(raw);
  if (!answer.empty() && std::all_of(answer.begin(), answer.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) {
    long n = answer.size() > 6 ? -1 : std::stol(answer);
    if (n >= 1 && n <= d.count()) return static_cast<int>(n - 1);
  }
  return match_label(d, answer);
}

int match_label(const Decision& d, const std::string& label) {
  const std::string wanted = lower(trim(label));
  for (int i = 0; i < d.count(); ++i)
    if (lower(d.label(i)) == wanted) return i;
  return -1;
}

std::unique_ptr<ScriptedAgent> ScriptedAgent::from_file(const std::string& path) {
  const InputFile file = read_input_file(path);
  if (!file.ok) throw AgentSpecError(fmt::format("{}: error: {} (answers file)", path, file.error));
  std::istringstream in(file.text);
  std::vector<std::string> answers;
  std::string line;
  while (std::getline(in, line)) {
    line = trim(line);
    if (line.empty() || line[0] == '#') continue;
    answers.push_back(line);
  }
  return std::make_unique<ScriptedAgent>(std::move(answers), path);
}

int ScriptedAgent::choose(const Decision& d) {
  if (next_ >= answers_.size())
    throw AgentFailure(fmt::format("{}: ran out of answers at \"{}\" (options: {})", source_,
                                 d.prompt(), option_list(d)));
  const std::string& answer = answers_[next_++];
  const int i = match_answer(d, answer);
  if (i < 0)
    throw AgentFailure(fmt::format("{}: answer {} '{}' is not among the options of \"{}\" ({})",
                                 source_, next_, answer, d.prompt(), option_list(d)));
  return i;
}

namespace {
uint64_t hashed_stream_seed(uint64_t game_seed, Seat seat) {
  // SHA-256 (nettle) of a domain tag, the game seed and the seat
  // (little-endian): one-way, so an agent cannot work its way back to the
  // chance seed.
  // On the stack: four of these start every game.
  static constexpr char kTag[] = "rulebook agent stream";
  constexpr size_t kTagSize = sizeof kTag - 1;
  uint8_t message[kTagSize + 8 + 4];
  std::memcpy(message, kTag, kTagSize);
  for (int i = 0; i < 8; ++i) message[kTagSize + i] = static_cast<uint8_t>(game_seed >> (8 * i));
  const auto seat_bits = static_cast<uint32_t>(seat.value());
  for (int i = 0; i < 4; ++i) message[kTagSize + 8 + i] = static_cast<uint8_t>(seat_bits >> (8 * i));
  sha256_ctx ctx;
  sha256_init(&ctx);
  sha256_update(&ctx, sizeof message, message);
  uint8_t digest[SHA256_DIGEST_SIZE];
  sha256_digest(&ctx, sizeof digest, digest);
  uint64_t seed = 0;
  for (int i = 0; i < 8; ++i) seed |= static_cast<uint64_t>(digest[i]) << (8 * i);
  return seed;
}
}  // namespace

uint64_t agent_stream_seed(uint64_t game_seed, Seat seat) {
  // A search plays thousands of games on one seed, each asking every
  // seat's seed: the last seed's are kept (per thread), the hash is paid
  // once per seed and seat, not once per game.
  constexpr int kKept = 8;
  thread_local uint64_t kept_for = 0;
  thread_local uint64_t kept[kKept];
  thread_local bool known[kKept] = {};
  if (seat.is_none() || seat.value() < 0 || seat.value() >= kKept) return hashed_stream_seed(game_seed, seat);
  if (kept_for != game_seed) {
    kept_for = game_seed;
    for (bool& k : known) k = false;
  }
  const auto i = static_cast<size_t>(seat.value());
  if (!known[i]) {
    kept[i] = hashed_stream_seed(game_seed, seat);
    known[i] = true;
  }
  return kept[i];
}

std::unique_ptr<Agent> make_bot(const std::string& text) {
  if (text == "random") return std::make_unique<RandomAgent>();
  if (text == "first") return std::make_unique<FirstAgent>();
  const std::string scripted = "scripted:";
  if (text.size() > scripted.size() && text.compare(0, scripted.size(), scripted) == 0)
    return ScriptedAgent::from_file(text.substr(scripted.size()));
  return nullptr;
}

}  // namespace rulebook
