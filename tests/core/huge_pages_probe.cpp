// The programs' start (mhaviz::restart_with_huge_pages, as app/ and the window benchmarks call
// it): the probe starts itself again with glibc.malloc.hugetlb=1, then checks that glibc marked
// a large block from malloc for transparent huge pages (the "hg" flag of its mapping in
// /proc/self/smaps) and that the arguments came through. `huge-pages-probe marked|unmarked
// "an argument"`: what the block must be (unmarked: the user's GLIBC_TUNABLES turned it off).
// Exit 0: as expected; 1: not; 77 (ctest's SKIP_RETURN_CODE) under a sanitizer, whose
// allocator is not glibc's.

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

#include "mhaviz/core/base/pages.hpp"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kSanitizer = true;
#else
constexpr bool kSanitizer = false;
#endif

namespace {

/// The VmFlags line of the mapping of /proc/self/smaps that holds `address`.
std::string flagsOfMapping(std::uintptr_t address) {
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    std::uintptr_t begin = 0;
    std::uintptr_t end = 0;
    char dash = 0;
    std::istringstream head(line);
    if (head >> std::hex >> begin >> dash >> end && dash == '-' &&
        line.find(':') > line.find(' ')) {
      inside = begin <= address && address < end;
    } else if (inside && line.rfind("VmFlags:", 0) == 0) {
      return line;
    }
  }
  return {};
}

}  // namespace

int main(int argc, char* argv[]) {
  if (kSanitizer) {
    std::puts("skipped: a sanitizer's allocator is not glibc's");
    return 77;
  }
  mhaviz::restart_with_huge_pages(argv);
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  std::printf("GLIBC_TUNABLES=%s\n", tunables != nullptr ? tunables : "(unset)");
  if (argc != 3 || std::strcmp(argv[2], "an argument") != 0) {
    std::puts("FAIL: the arguments did not come through the restart");
    return 1;
  }
  const bool expectMarked = std::strcmp(argv[1], "marked") == 0;
  constexpr std::size_t kBytes = std::size_t{64} << 20U;  // above any malloc mmap threshold
  auto* block = static_cast<char*>(std::malloc(kBytes));
  if (block == nullptr) return 1;
  std::memset(block, 1, kBytes);
  const std::string flags = flagsOfMapping(reinterpret_cast<std::uintptr_t>(block) + kBytes / 2);
  std::printf("%s\n", flags.c_str());
  std::free(block);
  const bool marked = flags.find(" hg") != std::string::npos;
  std::printf("%s: malloc's large block is %s for huge pages\n",
              marked == expectMarked ? "ok" : "FAIL", marked ? "marked" : "not marked");
  return marked == expectMarked ? 0 : 1;
}
