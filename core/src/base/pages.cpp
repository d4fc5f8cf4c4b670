#include "mhaviz/core/base/pages.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <string_view>

namespace mhaviz {

namespace {
constexpr std::size_t kHugePage = std::size_t{2} << 20U;

std::size_t mapped_size(std::size_t bytes) { return (bytes + kHugePage - 1) & ~(kHugePage - 1); }
}  // namespace

void* map_pages(std::size_t bytes) {
  const std::size_t size = mapped_size(bytes);
  void* raw =
      mmap(nullptr, size + kHugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) throw std::bad_alloc();
  const auto start = reinterpret_cast<std::uintptr_t>(raw);
  const std::uintptr_t aligned = (start + kHugePage - 1) & ~std::uintptr_t{kHugePage - 1};
  // Unmap the slack on either side of the aligned block.
  if (aligned > start) munmap(raw, aligned - start);
  if (const std::size_t tail = start + kHugePage - aligned; tail > 0) {
    munmap(reinterpret_cast<void*>(aligned + size), tail);
  }
  void* p = reinterpret_cast<void*>(aligned);
  madvise(p, size, MADV_HUGEPAGE);
  return p;
}

void unmap_pages(void* p, std::size_t bytes) { munmap(p, mapped_size(bytes)); }

std::optional<std::string> tunables_with_huge_pages(const char* current) {
  constexpr std::string_view kName = "glibc.malloc.hugetlb";
  const std::string_view now = current != nullptr ? current : "";
  // Tunables are name=value pairs separated by colons.
  for (std::size_t begin = 0; begin <= now.size();) {
    const std::size_t end = std::min(now.find(':', begin), now.size());
    const std::string_view pair = now.substr(begin, end - begin);
    if (pair.substr(0, pair.find('=')) == kName) return std::nullopt;
    begin = end + 1;
  }
  std::string next(now);
  if (!next.empty()) next += ':';
  next += kName;
  next += "=1";
  return next;
}

void restart_with_huge_pages(char** argv) {
  const std::optional<std::string> tunables =
      tunables_with_huge_pages(std::getenv("GLIBC_TUNABLES"));
  if (!tunables || setenv("GLIBC_TUNABLES", tunables->c_str(), 1) != 0) return;
  execv("/proc/self/exe", argv);
  // Not started again (no /proc): go on as is. The variable stays set, so that a program this
  // one starts does not try again either.
}

}  // namespace mhaviz
