#include "cli/run_provenance.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>

#include <nettle/sha2.h>

#include <fmt/format.h>

namespace rulebook::cli {
namespace fs = std::filesystem;

const char* rulebook_version() { return RULEBOOK_VERSION; }

namespace {

// Each piece is length-prefixed, so that ("ab", "c") and ("a", "bc") differ.
void add(sha256_ctx& ctx, const std::string& piece) {
  const std::string length = fmt::format("{}:", piece.size());
  sha256_update(&ctx, length.size(), reinterpret_cast<const uint8_t*>(length.data()));
  sha256_update(&ctx, piece.size(), reinterpret_cast<const uint8_t*>(piece.data()));
}

std::string contents(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace

std::string rules_hash(const std::string& dir, const std::vector<std::string>& variants,
                       const std::vector<std::string>& sets) {
  sha256_ctx ctx;
  sha256_init(&ctx);
  std::vector<fs::path> files;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec))
    if (it->is_regular_file()) files.push_back(fs::relative(it->path(), dir));
  std::sort(files.begin(), files.end());
  add(ctx, "files");
  for (const auto& file : files) {
    add(ctx, file.generic_string());
    add(ctx, contents(fs::path(dir) / file));
  }
  add(ctx, "variants");
  for (const auto& v : variants) {
    add(ctx, v);
    if (fs::is_regular_file(v, ec)) add(ctx, contents(v));
  }
  add(ctx, "sets");
  for (const auto& s : sets) add(ctx, s);
  uint8_t digest[SHA256_DIGEST_SIZE];
  sha256_digest(&ctx, sizeof digest, digest);
  std::string hex = "sha256:";
  for (uint8_t b : digest) hex += fmt::format("{:02x}", b);
  return hex;
}

}  // namespace rulebook::cli
