#pragma once
// Large blocks of memory in pages of their own: 2 MiB aligned and marked for transparent huge
// pages (MADV_HUGEPAGE: honoured when the system's THP mode is "madvise" or "always", ignored
// otherwise), so that first touching one takes a fault per 2 MiB instead of per 4 KiB. On a
// virtual machine each fault is costly: the head view's lists of millions of lines spent most
// of their time in them (docs/performance.md). Tensors keep such blocks for reuse (tensor.hpp);
// PageVector returns them to the system when freed. The window asks glibc's malloc to mark its
// own large blocks the same way (restart_with_huge_pages).

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mhaviz {

/// A block of at least `bytes` (> 0) in huge-page-aligned pages of its own. Throws
/// std::bad_alloc when the system has none.
void* map_pages(std::size_t bytes);
/// Returns a block from map_pages(bytes) to the system.
void unmap_pages(void* p, std::size_t bytes);

/// What GLIBC_TUNABLES (`current`; null when unset) becomes to ask glibc's malloc for transparent
/// huge pages as well (`glibc.malloc.hugetlb=1`: its large blocks and heap marked as above);
/// nullopt when it already names that tunable (the user's choice: `=0` turns it off).
std::optional<std::string> tunables_with_huge_pages(const char* current);

/// At the very start of main (before any thread or allocation that matters): runs the program
/// again, the same executable with the same arguments, with tunables_with_huge_pages in its
/// environment, so that every large block of the process is marked as above — Qt's images and
/// paint buffers and the file readers' buffers too, not only mhaviz's own. glibc reads its
/// tunables only when a process starts. Returns without doing anything when the environment
/// already names the tunable (the program started again, or the user's choice) or when the
/// program cannot be started again.
void restart_with_huge_pages(char** argv);

/// Blocks of `kPagesFrom` bytes and more are mapped in pages of their own (above); smaller ones
/// come from operator new.
inline constexpr std::size_t kPagesFrom = std::size_t{1} << 20U;

template <typename T>
struct PageAllocator {
  using value_type = T;
  PageAllocator() = default;
  template <typename U>
  explicit PageAllocator(const PageAllocator<U>& /*other*/) {}
  T* allocate(std::size_t n) {
    const std::size_t bytes = n * sizeof(T);
    if (bytes >= kPagesFrom) return static_cast<T*>(map_pages(bytes));
    return std::allocator<T>().allocate(n);
  }
  void deallocate(T* p, std::size_t n) {
    const std::size_t bytes = n * sizeof(T);
    if (bytes >= kPagesFrom) {
      unmap_pages(p, bytes);
    } else {
      std::allocator<T>().deallocate(p, n);
    }
  }
  template <typename U>
  bool operator==(const PageAllocator<U>& /*other*/) const {
    return true;
  }
};

/// A vector whose large storage is mapped as above: for lists of millions of elements that are
/// made, read and dropped again and again.
template <typename T>
using PageVector = std::vector<T, PageAllocator<T>>;

}  // namespace mhaviz
