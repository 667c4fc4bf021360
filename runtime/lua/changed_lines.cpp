#include "lua/changed_lines.hpp"

#include <cstring>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define RULEBOOK_CHANGED_LINES_X86 1
#endif

namespace rulebook {
namespace {

using LineCopy = void (*)(char*, const char*, size_t);

void copy_every_line(char* dst, const char* src, size_t n) { std::memcpy(dst, src, n); }

#ifdef RULEBOOK_CHANGED_LINES_X86
// Four 64-byte lines a step, compared at once: a step whose lines are all
// as they were writes nothing (most of them).
__attribute__((target("avx512f"))) void copy_changed_avx512(char* dst, const char* src, size_t n) {
  size_t o = 0;
  for (; o + 256 <= n; o += 256) {
    const __m512i a0 = _mm512_loadu_si512(src + o), b0 = _mm512_loadu_si512(dst + o);
    const __m512i a1 = _mm512_loadu_si512(src + o + 64), b1 = _mm512_loadu_si512(dst + o + 64);
    const __m512i a2 = _mm512_loadu_si512(src + o + 128), b2 = _mm512_loadu_si512(dst + o + 128);
    const __m512i a3 = _mm512_loadu_si512(src + o + 192), b3 = _mm512_loadu_si512(dst + o + 192);
    const __m512i x = _mm512_or_si512(_mm512_or_si512(_mm512_xor_si512(a0, b0), _mm512_xor_si512(a1, b1)),
                                      _mm512_or_si512(_mm512_xor_si512(a2, b2), _mm512_xor_si512(a3, b3)));
    if (_mm512_test_epi64_mask(x, x) == 0) continue;
    _mm512_storeu_si512(dst + o, a0);
    _mm512_storeu_si512(dst + o + 64, a1);
    _mm512_storeu_si512(dst + o + 128, a2);
    _mm512_storeu_si512(dst + o + 192, a3);
  }
  for (; o + 64 <= n; o += 64) {
    const __m512i a = _mm512_loadu_si512(src + o), b = _mm512_loadu_si512(dst + o);
    if (_mm512_cmpneq_epi64_mask(a, b) != 0) _mm512_storeu_si512(dst + o, a);
  }
  if (o < n) std::memcpy(dst + o, src + o, n - o);
}

__attribute__((target("avx2"))) void copy_changed_avx2(char* dst, const char* src, size_t n) {
  size_t o = 0;
  for (; o + 64 <= n; o += 64) {
    const __m256i a0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + o));
    const __m256i a1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + o + 32));
    const __m256i b0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(dst + o));
    const __m256i b1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(dst + o + 32));
    const __m256i x = _mm256_or_si256(_mm256_xor_si256(a0, b0), _mm256_xor_si256(a1, b1));
    if (_mm256_testz_si256(x, x)) continue;
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + o), a0);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + o + 32), a1);
  }
  if (o < n) std::memcpy(dst + o, src + o, n - o);
}
#endif

// Chosen once, by what the processor has; a plain copy elsewhere (a
// comparison without wide registers is slower than memcpy).
LineCopy choose_line_copy() {
#ifdef RULEBOOK_CHANGED_LINES_X86
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) return copy_changed_avx512;
  if (__builtin_cpu_supports("avx2")) return copy_changed_avx2;
#endif
  return copy_every_line;
}

}  // namespace

void copy_changed_lines(char* dst, const char* src, size_t n) {
  static const LineCopy copy = choose_line_copy();
  copy(dst, src, n);
}

}  // namespace rulebook

#undef RULEBOOK_CHANGED_LINES_X86
