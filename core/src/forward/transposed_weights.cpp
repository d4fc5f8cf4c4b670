#include "transposed_weights.hpp"

#include <algorithm>
#include <list>
#include <mutex>

#include "base/eigen_types.hpp"

namespace mhaviz::detail {
namespace {

struct Entry {
  Tensor pinned;  // shares the weight's storage: keeps it alive and unchanged
  std::int64_t row0 = 0, rows = 0;
  std::shared_ptr<const void> transposed;
  std::int64_t bytes = 0;
};

class Cache {
 public:
  template <typename T>
  std::shared_ptr<const Transposed<T>> get(const Tensor& w, std::int64_t row0, std::int64_t rows) {
    {
      const std::lock_guard lock(mutex_);
      for (auto it = entries_.begin(); it != entries_.end(); ++it) {
        if (it->pinned.shares_storage_with(w) && it->pinned.type() == w.type() &&
            it->pinned.size(-1) == w.size(-1) && it->row0 == row0 && it->rows == rows) {
          entries_.splice(entries_.begin(), entries_, it);  // most recently used first
          return std::static_pointer_cast<const Transposed<T>>(it->transposed);
        }
      }
    }
    // Made outside the lock: two threads may both make it, and both are right.
    const std::int64_t cols = w.size(-1);
    auto made = std::make_shared<const Transposed<T>>(
        transposed_padded(ConstMatMap<T>(w.data<T>().data() + row0 * cols, rows, cols)));
    const std::int64_t bytes = made->storage.size() * std::int64_t{sizeof(T)};
    const std::lock_guard lock(mutex_);
    if (bytes <= kTransposedWeightsBytes) {
      entries_.push_front({w, row0, rows, made, bytes});
      held_ += bytes;
      while (held_ > kTransposedWeightsBytes) {
        held_ -= entries_.back().bytes;
        entries_.pop_back();
      }
    }
    return made;
  }

 private:
  std::mutex mutex_;
  std::list<Entry> entries_;  // most recently used first
  std::int64_t held_ = 0;
};

Cache& cache() {
  static auto* instance = new Cache;  // never destroyed: passes may run during exit
  return *instance;
}

}  // namespace

template <typename T>
std::shared_ptr<const Transposed<T>> transposed_weight(const Tensor& w, std::int64_t row0,
                                                       std::int64_t rows) {
  return cache().get<T>(w, row0, rows);
}

template std::shared_ptr<const Transposed<float>> transposed_weight<float>(const Tensor&,
                                                                           std::int64_t,
                                                                           std::int64_t);
template std::shared_ptr<const Transposed<double>> transposed_weight<double>(const Tensor&,
                                                                             std::int64_t,
                                                                             std::int64_t);

}  // namespace mhaviz::detail
