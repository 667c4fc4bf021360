#include "table/table_store.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>

#include <fmt/format.h>

#include "core/our_words.hpp"
#include "play/match.hpp"
#include "setup/game_loader.hpp"

namespace rulebook {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char* kExtension = ".table";
constexpr const char* kSetAside = "set-aside";
constexpr int kFormat = 1;

std::runtime_error io_error(const std::string& what, const std::string& path) {
  return std::runtime_error(fmt::format("cannot {} '{}' ({})", what, path, std::strerror(errno)));
}

// The folder's own entry list on disk: a file created, renamed or removed
// survives a crash only once its folder is synced too.
void sync_dir(const std::string& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) throw io_error("open the folder", dir);
  const int synced = ::fsync(fd);
  ::close(fd);
  if (synced != 0) throw io_error("sync the folder", dir);
}

void write_all(int fd, const std::string& text, const std::string& path) {
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw io_error("write", path);
    done += static_cast<size_t>(n);
  }
}

// A whole file written, synced, and put in place by one rename (synced):
// a reader sees the old file or the new one, never half of one.
void replace_file(const std::string& dir, const std::string& path, const std::string& text) {
  const std::string temporary = path + ".new";
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) throw io_error("create", temporary);
  try {
    write_all(fd, text, temporary);
    if (::fsync(fd) != 0) throw io_error("sync", temporary);
  } catch (...) {
    ::close(fd);
    ::unlink(temporary.c_str());
    throw;
  }
  ::close(fd);
  if (::rename(temporary.c_str(), path.c_str()) != 0) throw io_error("rename", temporary);
  sync_dir(dir);
}

json answer_line(Seat seat, int decision, int index) {
  return json{{"seat", seat.value()}, {"decision", decision}, {"choose", index}};
}

// The setup and then the answers, numbered per seat.
std::string file_text(const json& setup, const std::vector<AnswerRecord>& answers) {
  std::string text = setup.dump() + "\n";
  std::map<int, int> numbers;
  for (const AnswerRecord& a : answers)
    text += answer_line(a.seat, ++numbers[a.seat.value()], a.index).dump() + "\n";
  return text;
}

json setup_json(const TableConfig& c, const std::string& game, const std::string& created) {
  std::vector<std::string> tokens(c.kinds.size());
  for (size_t i = 0; i < c.tokens.size() && i < tokens.size(); ++i) tokens[i] = c.tokens[i];
  return json{{"rulebook_table", kFormat},
              {"id", c.id},
              {"game", game},
              {"source", c.spec.game},
              {"variants", c.spec.variants},
              {"set", c.spec.sets},
              {"players", c.spec.players},
              {"seed", c.spec.seed},
              {"names", c.spec.names},
              {"kinds", c.kinds},
              {"tokens", tokens},
              {"created", created}};
}

// One table's file, appended to as answers come.
class FileJournal : public TableJournal {
 public:
  FileJournal(std::string dir, std::string path, json setup) : dir_(std::move(dir)), path_(std::move(path)), setup_(std::move(setup)) {
    fd_ = ::open(path_.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
    if (fd_ < 0) throw io_error("open", path_);
  }
  ~FileJournal() override {
    if (fd_ >= 0) ::close(fd_);
  }
  void answered(Seat seat, int decision, int index) override {
    std::lock_guard lock(mutex_);
    if (fd_ < 0) return;  // the game ended: nothing is kept
    write_all(fd_, answer_line(seat, decision, index).dump() + "\n", path_);
    if (::fdatasync(fd_) != 0) throw io_error("sync", path_);
  }
  void taken_back(const std::vector<AnswerRecord>& kept) override {
    std::lock_guard lock(mutex_);
    if (fd_ < 0) return;
    replace_file(dir_, path_, file_text(setup_, kept));
    ::close(fd_);
    fd_ = ::open(path_.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
    if (fd_ < 0) throw io_error("open", path_);
  }
  void finished() override {
    std::lock_guard lock(mutex_);
    if (fd_ < 0) return;
    ::close(fd_);
    fd_ = -1;
    // The log is the game's record now; a file left by a failure here is
    // replayed to its end at the next start and removed then.
    if (::unlink(path_.c_str()) == 0) {
      try {
        sync_dir(dir_);
      } catch (const std::exception&) {
      }
    }
  }

 private:
  std::mutex mutex_;
  const std::string dir_, path_;
  const json setup_;
  int fd_ = -1;
};

template <typename T>
T field(const json& setup, const char* name) {
  if (!setup.contains(name)) throw std::runtime_error(fmt::format("its setup has no \"{}\"", name));
  try {
    return setup.at(name).get<T>();
  } catch (const json::exception&) {
    throw std::runtime_error(fmt::format("its setup's \"{}\" is {}", name, setup.at(name).dump()));
  }
}

bool is_id(const std::string& id) {
  return !id.empty() && id.size() <= 64 &&
         std::all_of(id.begin(), id.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

// Reads one file back to where its game stood. Throws std::runtime_error
// with the reason it cannot.
TableStore::Saved read_table(const std::string& path, const std::string& id, const EngineLimits& limits) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("it cannot be read");
  std::stringstream whole;
  whole << in.rdbuf();
  const std::string text = whole.str();
  std::vector<std::string> lines;
  size_t at = 0;
  while (at < text.size()) {
    const size_t end = text.find('\n', at);
    // A last line without its newline was being written when the server
    // stopped: that answer was never accepted.
    if (end == std::string::npos) break;
    lines.push_back(text.substr(at, end - at));
    at = end + 1;
  }
  if (lines.empty()) throw std::runtime_error("it is empty (not a table's file)");
  const json setup = json::parse(lines[0], nullptr, false);
  if (setup.is_discarded() || !setup.is_object() || !setup.contains("rulebook_table"))
    throw std::runtime_error("its first line is not a table's setup (not a file of rulebook serve --state-dir)");
  if (setup.at("rulebook_table") != kFormat)
    throw std::runtime_error(fmt::format("it is of format {}, this rulebook reads format {}", setup.at("rulebook_table").dump(), kFormat));

  TableStore::Saved saved;
  TableConfig& c = saved.config;
  c.id = field<std::string>(setup, "id");
  if (c.id != id) throw std::runtime_error(fmt::format("it names table '{}', not '{}' as its file name says", c.id, id));
  saved.game = field<std::string>(setup, "game");
  saved.created = field<std::string>(setup, "created");
  c.spec.game = field<std::string>(setup, "source");
  c.spec.variants = field<std::vector<std::string>>(setup, "variants");
  c.spec.sets = field<std::vector<std::string>>(setup, "set");
  c.spec.players = field<int>(setup, "players");
  c.spec.seed = field<uint64_t>(setup, "seed");
  c.spec.names = field<std::vector<std::string>>(setup, "names");
  c.kinds = field<std::vector<std::string>>(setup, "kinds");
  c.tokens = field<std::vector<std::string>>(setup, "tokens");
  if (c.spec.players < 1 || static_cast<size_t>(c.spec.players) != c.kinds.size() || c.tokens.size() != c.kinds.size())
    throw std::runtime_error(fmt::format("its setup has {} players, {} seats' kinds and {} tokens", c.spec.players,
                                         c.kinds.size(), c.tokens.size()));
  for (size_t i = 0; i < c.kinds.size(); ++i)
    if ((c.kinds[i] == "human") != (c.tokens[i].size() == 32 && is_id(c.tokens[i])))
      throw std::runtime_error(fmt::format("seat {}'s token does not fit its kind '{}'", i, c.kinds[i]));
  c.limits = limits;
  try {
    c.definition = load_game(c.spec.game, LoadOptions{c.spec.variants, c.spec.sets});
  } catch (const std::exception& e) {
    throw std::runtime_error(fmt::format("its game does not load: {}", e.what()));
  }

  // Each seat's answers, in its order.
  std::vector<std::deque<std::pair<int, int>>> given(c.kinds.size());  // (decision, index)
  for (size_t n = 1; n < lines.size(); ++n) {
    const json line = json::parse(lines[n], nullptr, false);
    const auto bad = [&] { return std::runtime_error(fmt::format("line {} is not an answer: {}", n + 1, lines[n].substr(0, 80))); };
    if (line.is_discarded() || !line.is_object() || !line.contains("seat") || !line.contains("decision") ||
        !line.contains("choose") || !line["seat"].is_number_integer() || !line["decision"].is_number_integer() ||
        !line["choose"].is_number_integer())
      throw bad();
    const int64_t seat = line["seat"].get<int64_t>();
    if (seat < 0 || seat >= c.spec.players) throw bad();
    auto& mine = given[static_cast<size_t>(seat)];
    const int expected = (mine.empty() ? 0 : mine.back().first) + 1;
    if (line["decision"].get<int64_t>() != expected)
      throw std::runtime_error(fmt::format("line {} answers seat {}'s decision {}, but decision {} comes next", n + 1, seat,
                                           line["decision"].get<int64_t>(), expected));
    mine.emplace_back(expected, static_cast<int>(line["choose"].get<int64_t>()));
  }

  // The game again, each seat answering from its own answers in the order
  // the game asks: the game's order of answers, and where it stands.
  Match match(c.definition, limits);
  match.record_answers();
  std::vector<int> asked(c.kinds.size(), 0);
  try {
    bool going = match.start(c.spec.players, c.spec.seed, c.spec.names);
    while (going) {
      bool answered = false;
      for (Seat s : match.pending_seats()) {
        auto& mine = given[s.index()];
        if (mine.empty()) continue;
        ++asked[s.index()];
        going = match.answer(s, mine.front().second);
        mine.pop_front();
        answered = true;
        break;
      }
      if (!answered) break;
    }
  } catch (const std::exception& e) {
    throw std::runtime_error(fmt::format("its answers do not replay: {}", in_our_words(e, "the game stopped on an internal error")));
  }
  for (Seat s : Seat::all(c.spec.players))
    if (!given[s.index()].empty())
      throw std::runtime_error(fmt::format("its answers do not replay: seat {} answered {} decisions more than the game asked",
                                           s, given[s.index()].size()));
  c.resume.answers = match.answers();
  for (const AnswerRecord& a : match.together_answers()) {
    int number = 0;  // the seat's numbering: its answers of the game so far, and this one
    for (const AnswerRecord& b : c.resume.answers) number += b.seat == a.seat;
    c.resume.together.push_back(TableResume::Given{a.seat, number + 1, a.index});
  }
  return saved;
}

}  // namespace

TableStore::TableStore(std::string dir) : dir_(std::move(dir)) {
  std::error_code ec;
  fs::create_directories(fs::path(dir_) / kSetAside, ec);
  if (!fs::is_directory(fs::path(dir_) / kSetAside, ec))
    throw std::runtime_error(fmt::format("cannot make the folder '{}' (and its {}/)", dir_, kSetAside));
}

std::string TableStore::path_of(const std::string& id) const { return (fs::path(dir_) / (id + kExtension)).string(); }

TableStore::SetAside TableStore::move_aside(const std::string& name, const std::string& reason) {
  const fs::path aside = fs::path(dir_) / kSetAside;
  fs::path target = aside / name;
  for (int n = 2; fs::exists(target); ++n) target = aside / fmt::format("{}.{}", name, n);
  if (::rename((fs::path(dir_) / name).c_str(), target.c_str()) != 0) throw io_error("set aside", (fs::path(dir_) / name).string());
  replace_file(aside.string(), target.string() + ".reason", reason + "\n");
  sync_dir(dir_);
  return SetAside{target.string(), reason};
}

std::vector<TableStore::Saved> TableStore::load(const EngineLimits& limits, std::vector<SetAside>& set_aside) {
  std::lock_guard lock(mutex_);
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir_)) {
    const std::string name = entry.path().filename().string();
    if (name == kSetAside && entry.is_directory()) continue;
    names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  std::vector<Saved> tables;
  for (const std::string& name : names) {
    const fs::path path = fs::path(dir_) / name;
    const std::string id = path.stem().string();
    try {
      if (!fs::is_regular_file(path) || path.extension() != kExtension || !is_id(id))
        throw std::runtime_error("it is not a table's file (they are named ID.table)");
      Saved saved = read_table(path.string(), id, limits);
      saved.config.journal = std::make_shared<FileJournal>(dir_, path.string(),
                                                           setup_json(saved.config, saved.game, saved.created));
      tables.push_back(std::move(saved));
    } catch (const std::exception& e) {
      set_aside.push_back(move_aside(name, e.what()));
    }
  }
  std::stable_sort(tables.begin(), tables.end(), [](const Saved& a, const Saved& b) { return a.created < b.created; });
  return tables;
}

TableStore::SetAside TableStore::set_aside(const std::string& id, const std::string& reason) {
  std::lock_guard lock(mutex_);
  return move_aside(id + kExtension, reason);
}

void TableStore::keep(TableConfig& config, const std::string& game, const std::string& created) {
  std::random_device device;
  if (config.id.empty()) config.id = fmt::format("{:08x}{:08x}", device(), device());
  if (!is_id(config.id)) throw std::invalid_argument(fmt::format("a kept table needs an id of hex digits, not '{}'", config.id));
  // The tokens are drawn here, so that the file holds them before any page does.
  if (config.tokens.empty()) {
    for (const std::string& kind : config.kinds)
      config.tokens.push_back(kind == "human" ? fmt::format("{:08x}{:08x}{:08x}{:08x}", device(), device(), device(), device()) : "");
  }
  const json setup = setup_json(config, game, created);
  const std::string path = path_of(config.id);
  {
    std::lock_guard lock(mutex_);
    replace_file(dir_, path, file_text(setup, {}));
  }
  config.journal = std::make_shared<FileJournal>(dir_, path, setup);
}

void TableStore::forget(const std::string& id) noexcept {
  std::lock_guard lock(mutex_);
  if (::unlink(path_of(id).c_str()) != 0) return;  // gone already (the game's end removed it)
  try {
    sync_dir(dir_);
  } catch (const std::exception&) {
    // The file is gone from the folder; a crash before the folder reaches
    // the disk brings the table back once more, and the sweep forgets it again.
  }
}

std::vector<std::string> TableStore::kept() const {
  std::lock_guard lock(mutex_);
  std::vector<std::string> ids;
  for (const auto& entry : fs::directory_iterator(dir_))
    if (entry.path().extension() == kExtension) ids.push_back(entry.path().stem().string());
  std::sort(ids.begin(), ids.end());
  return ids;
}

}  // namespace rulebook
