#include "mhaviz/core/base/pages.hpp"

#include <sys/mman.h>

#include <cstdint>
#include <new>

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

}  // namespace mhaviz
