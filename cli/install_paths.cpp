// Where the installed binary finds its bundled games and schemas, with no
// environment variable: beside itself first (so a tree copied or installed
// with `cmake --install --prefix P` works wherever it lands), then the
// configured install prefix. A binary still in its build tree uses the
// source tree. RULEBOOK_RULES / RULEBOOK_SCHEMAS override all of this.
#include <filesystem>

#include "cli/commands.hpp"

namespace fs = std::filesystem;

namespace rulebook::cli {
namespace {

bool has_data(const fs::path& root) {
  std::error_code ec;
  return fs::is_directory(root / "rules", ec) && fs::is_directory(root / "schemas", ec);
}

bool is_inside(const fs::path& path, const fs::path& dir) {
  const auto rel = path.lexically_relative(dir);
  return !rel.empty() && rel.native().rfind("..", 0) != 0;
}

}  // namespace

std::string find_data_root() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const fs::path beside = (exe.parent_path() / RULEBOOK_DATA_FROM_BIN).lexically_normal();
    if (has_data(beside)) return beside.string();
    if (is_inside(exe, fs::weakly_canonical(RULEBOOK_BUILD_DIR, ec))) return RULEBOOK_SOURCE_DIR;
  }
  if (has_data(RULEBOOK_INSTALL_DATA_DIR)) return RULEBOOK_INSTALL_DATA_DIR;
  return RULEBOOK_SOURCE_DIR;
}

}  // namespace rulebook::cli
