#include "mhaviz/core/base/tensor.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <mutex>
#include <new>
#include <stdexcept>
#include <type_traits>

#include "mhaviz/core/base/pages.hpp"

namespace mhaviz {

std::string_view to_string(ElemType type) {
  switch (type) {
    case ElemType::f32:
      return "float32";
    case ElemType::f64:
      return "float64";
    case ElemType::boolean:
      return "bool";
    case ElemType::u8:
      return "uint8";
  }
  return "?";
}

std::size_t elem_size(ElemType type) {
  switch (type) {
    case ElemType::f32:
      return 4;
    case ElemType::f64:
      return 8;
    case ElemType::boolean:
    case ElemType::u8:
      return 1;
  }
  return 1;
}

std::int64_t numel(const Shape& shape) {
  for (const std::int64_t d : shape) {
    if (d < 0) throw std::invalid_argument("negative dimension in shape " + shape_str(shape));
  }
  // A zero dimension empties the tensor, however large the others (a .npy header may say so).
  if (std::find(shape.begin(), shape.end(), 0) != shape.end()) return 0;
  std::int64_t n = 1;
  for (const std::int64_t d : shape) {
    if (n > std::numeric_limits<std::int64_t>::max() / d) {
      throw std::invalid_argument("shape " + shape_str(shape) + " has too many elements");
    }
    n *= d;
  }
  return n;
}

std::string shape_str(const Shape& shape) {
  std::string s = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i > 0) s += ", ";
    s += std::to_string(shape[i]);
  }
  if (shape.size() == 1) s += ",";
  return s + ")";
}

namespace detail {
namespace {
constexpr std::align_val_t kAlign{64};
constexpr std::size_t kCacheLimit = std::size_t{1} << 30U;  // held at most while unused

/// Large blocks freed by one forward pass are kept for the next one of the same shape: a
/// window recomputing on every slider step would otherwise have the kernel fault in and
/// clear hundreds of MiB each time. Exact-size reuse; oldest blocks go first past the limit.
class BlockCache {
 public:
  void* take(std::size_t bytes) {
    const std::lock_guard lock(mutex_);
    for (auto it = blocks_.begin(); it != blocks_.end(); ++it) {
      if (it->second == bytes) {
        void* p = it->first;
        held_ -= bytes;
        blocks_.erase(it);
        return p;
      }
    }
    return nullptr;
  }
  void give(void* p, std::size_t bytes) {
    std::vector<std::pair<void*, std::size_t>> evicted;
    {
      const std::lock_guard lock(mutex_);
      if (bytes > kCacheLimit) {
        evicted.emplace_back(p, bytes);
      } else {
        blocks_.emplace_back(p, bytes);
        held_ += bytes;
        while (held_ > kCacheLimit) {
          evicted.push_back(blocks_.front());
          held_ -= blocks_.front().second;
          blocks_.erase(blocks_.begin());
        }
      }
    }
    for (const auto& [q, n] : evicted) unmap_pages(q, n);
  }

 private:
  std::mutex mutex_;
  std::vector<std::pair<void*, std::size_t>> blocks_;  // oldest first
  std::size_t held_ = 0;
};

BlockCache& cache() {
  static auto* instance = new BlockCache;  // never destroyed: tensors may outlive statics
  return *instance;
}
}  // namespace

void* allocate_storage(std::size_t bytes) {
  if (bytes >= kPagesFrom) {
    if (void* p = cache().take(bytes)) return p;
    return map_pages(bytes);  // huge pages (pages.hpp)
  }
  return ::operator new(bytes, kAlign);
}

void free_storage(void* p, std::size_t bytes) {
  if (bytes >= kPagesFrom) {
    cache().give(p, bytes);
  } else {
    ::operator delete(p, kAlign);
  }
}
}  // namespace detail

namespace {
template <typename T>
constexpr bool matches(ElemType type) {
  if constexpr (std::is_same_v<T, float>) return type == ElemType::f32;
  if constexpr (std::is_same_v<T, double>) return type == ElemType::f64;
  if constexpr (std::is_same_v<T, std::uint8_t>) {
    return type == ElemType::boolean || type == ElemType::u8;
  }
  return false;
}
}  // namespace

Tensor::Tensor(ElemType type, Shape shape) : type_(type), shape_(std::move(shape)) {
  const auto n = static_cast<std::size_t>(mhaviz::numel(shape_));
  switch (type_) {
    case ElemType::f32:
      storage_ = std::make_shared<Storage>(AlignedVector<float>(n, 0.0F));
      break;
    case ElemType::f64:
      storage_ = std::make_shared<Storage>(AlignedVector<double>(n, 0.0));
      break;
    case ElemType::boolean:
    case ElemType::u8:
      storage_ = std::make_shared<Storage>(AlignedVector<std::uint8_t>(n, 0));
      break;
  }
}

Tensor Tensor::uninitialized(ElemType type, Shape shape) {
  Tensor t;
  t.type_ = type;
  t.shape_ = std::move(shape);
  const auto n = static_cast<std::size_t>(mhaviz::numel(t.shape_));
  switch (type) {
    case ElemType::f32:
      t.storage_ = std::make_shared<Storage>(AlignedVector<float>(n));
      break;
    case ElemType::f64:
      t.storage_ = std::make_shared<Storage>(AlignedVector<double>(n));
      break;
    case ElemType::boolean:
    case ElemType::u8:
      t.storage_ = std::make_shared<Storage>(AlignedVector<std::uint8_t>(n));
      break;
  }
  return t;
}

template <typename T>
Tensor Tensor::from(Shape shape, std::vector<T> values) {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double> ||
                std::is_same_v<T, std::uint8_t>);
  if (static_cast<std::size_t>(mhaviz::numel(shape)) != values.size()) {
    throw std::invalid_argument("Tensor::from: " + std::to_string(values.size()) +
                                " values do not fill shape " + shape_str(shape));
  }
  Tensor t;
  if constexpr (std::is_same_v<T, float>) t.type_ = ElemType::f32;
  if constexpr (std::is_same_v<T, double>) t.type_ = ElemType::f64;
  if constexpr (std::is_same_v<T, std::uint8_t>) t.type_ = ElemType::u8;
  t.shape_ = std::move(shape);
  t.storage_ = std::make_shared<Storage>(AlignedVector<T>(values.begin(), values.end()));
  return t;
}
template Tensor Tensor::from<float>(Shape, std::vector<float>);
template Tensor Tensor::from<double>(Shape, std::vector<double>);
template Tensor Tensor::from<std::uint8_t>(Shape, std::vector<std::uint8_t>);

std::int64_t Tensor::size(std::int64_t i) const {
  const std::int64_t d = dim();
  const std::int64_t j = i < 0 ? i + d : i;
  if (j < 0 || j >= d) {
    throw std::out_of_range("dimension " + std::to_string(i) + " out of range for a " +
                            std::to_string(d) + "-D tensor");
  }
  return shape_[static_cast<std::size_t>(j)];
}

Tensor Tensor::from_bools(Shape shape, std::vector<std::uint8_t> values) {
  Tensor t = from(std::move(shape), std::move(values));
  t.type_ = ElemType::boolean;
  for (auto& b : t.data<std::uint8_t>()) b = b != 0 ? 1 : 0;
  return t;
}

template <typename T>
std::span<T> Tensor::data() {
  if (!matches<T>(type_)) {
    throw std::logic_error(std::string("Tensor::data: tensor holds ") +
                           std::string(to_string(type_)));
  }
  using V = AlignedVector<std::remove_const_t<T>>;
  return std::span<T>(std::get<V>(own()));
}
template <typename T>
std::span<const T> Tensor::data() const {
  if (!matches<T>(type_)) {
    throw std::logic_error(std::string("Tensor::data: tensor holds ") +
                           std::string(to_string(type_)));
  }
  return std::span<const T>(std::get<AlignedVector<T>>(stored()));
}
template std::span<float> Tensor::data<float>();
template std::span<double> Tensor::data<double>();
template std::span<std::uint8_t> Tensor::data<std::uint8_t>();
template std::span<const float> Tensor::data<float>() const;
template std::span<const double> Tensor::data<double>() const;
template std::span<const std::uint8_t> Tensor::data<std::uint8_t>() const;

double Tensor::value(std::int64_t flat_index) const {
  const auto i = static_cast<std::size_t>(flat_index);
  return std::visit([i](const auto& v) { return static_cast<double>(v.at(i)); }, stored());
}

Tensor::Storage& Tensor::own() {
  if (storage_.use_count() > 1) storage_ = std::make_shared<Storage>(*storage_);
  return *storage_;
}

std::span<const std::byte> Tensor::bytes() const {
  return std::visit([](const auto& v) { return std::as_bytes(std::span(v)); }, stored());
}
std::span<std::byte> Tensor::bytes() {
  return std::visit([](auto& v) { return std::as_writable_bytes(std::span(v)); }, own());
}

Tensor Tensor::to(ElemType type) const {
  if (type == type_) return *this;
  Tensor out(type, shape_);
  const auto n = static_cast<std::size_t>(numel());
  std::visit(
      [&](const auto& src) {
        std::visit(
            [&](auto& dst) {
              using D = typename std::decay_t<decltype(dst)>::value_type;
              for (std::size_t i = 0; i < n; ++i) {
                if constexpr (std::is_same_v<D, std::uint8_t>) {
                  dst[i] = src[i] != 0 ? 1 : 0;
                } else {
                  dst[i] = static_cast<D>(src[i]);
                }
              }
            },
            out.own());
      },
      stored());
  return out;
}

Tensor Tensor::reshaped(Shape shape) const {
  if (mhaviz::numel(shape) != numel()) {
    throw std::invalid_argument("cannot reshape " + shape_str(shape_) + " to " + shape_str(shape));
  }
  Tensor t = *this;
  t.shape_ = std::move(shape);
  return t;
}

}  // namespace mhaviz
