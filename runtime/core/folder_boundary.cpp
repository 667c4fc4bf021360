#include "core/folder_boundary.hpp"

#include <filesystem>

namespace rulebook {

namespace fs = std::filesystem;

namespace {

fs::path resolved(const std::string& path, std::error_code& ec) {
  fs::path p = fs::weakly_canonical(fs::absolute(path, ec), ec);
  if (!p.empty() && p.filename().empty()) p = p.parent_path();  // "dir/" is "dir"
  return p;
}

}  // namespace

bool inside_folder(const std::string& folder, const std::string& path) {
  if (folder.empty() || path.empty()) return false;
  std::error_code ec;
  const fs::path root = resolved(folder, ec);
  if (ec || root.empty()) return false;
  const fs::path target = resolved(path, ec);
  if (ec || target.empty()) return false;
  auto t = target.begin();
  for (auto r = root.begin(); r != root.end(); ++r, ++t)
    if (t == target.end() || *r != *t) return false;
  return true;
}

}  // namespace rulebook
