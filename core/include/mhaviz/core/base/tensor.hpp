#pragma once
/// \file
/// A small owning n-d array in row-major (C) order, the exchange type between the core,
/// the file formats and the UI. Element types are the ones PyTorch users put in files.

#include <cstdint>
#include <memory>
#include <new>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace mhaviz {

/// Element type of a Tensor. `boolean` stores 0/1 bytes.
enum class ElemType : std::uint8_t { f32, f64, boolean, u8 };

/// "float32", "float64", "bool", "uint8" (numpy / PyTorch spelling).
std::string_view to_string(ElemType type);
/// Bytes per element.
std::size_t elem_size(ElemType type);

using Shape = std::vector<std::int64_t>;

namespace detail {
/// Storage for tensors, 64-byte aligned; blocks of 1 MiB and more in pages of their own
/// (pages.hpp). Freed blocks of 1 MiB and more are kept (up to
/// 1 GiB in all) for reuse by the next tensor of the same size. Thread-safe.
void* allocate_storage(std::size_t bytes);
void free_storage(void* p, std::size_t bytes);
}  // namespace detail

/// Allocator of Tensor storage. Alignment is the same on every run, so vectorised reductions
/// sum in the same order and one input always gives bit-identical results. Elements are
/// default-initialised (not zeroed) unless a value is given.
template <typename T>
struct AlignedAllocator {
  using value_type = T;
  AlignedAllocator() = default;
  template <typename U>
  explicit AlignedAllocator(const AlignedAllocator<U>& /*other*/) {}
  T* allocate(std::size_t n) { return static_cast<T*>(detail::allocate_storage(n * sizeof(T))); }
  void deallocate(T* p, std::size_t n) { detail::free_storage(p, n * sizeof(T)); }
  template <typename U, typename... Args>
  void construct(U* p, Args&&... args) {
    if constexpr (sizeof...(Args) == 0) {
      ::new (static_cast<void*>(p)) U;
    } else {
      ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
    }
  }
  template <typename U>
  bool operator==(const AlignedAllocator<U>& /*other*/) const {
    return true;
  }
};
template <typename T>
using AlignedVector = std::vector<T, AlignedAllocator<T>>;

/// Product of the dimensions (1 for a 0-d shape). Throws on a negative dimension or overflow.
std::int64_t numel(const Shape& shape);
/// PyTorch-style tuple text: "(2, 3)", "(5,)", "()".
std::string shape_str(const Shape& shape);

/// Owning row-major n-d array with value semantics. Copies (and reshaped()) share the
/// elements until one of them is written through a non-const accessor, which copies first;
/// so a copy costs nothing until it is changed. As with standard containers, one Tensor
/// object must not be accessed non-const from two threads while it is being copied.
class Tensor {
 public:
  Tensor() = default;
  /// Zero-filled tensor of the given type and shape.
  Tensor(ElemType type, Shape shape);
  /// Tensor whose elements are left uninitialised, for outputs that are written in full.
  static Tensor uninitialized(ElemType type, Shape shape);

  /// Tensor owning `values` (float: f32, double: f64, std::uint8_t: u8).
  template <typename T>
  static Tensor from(Shape shape, std::vector<T> values);
  /// Bool tensor owning 0/1 `values`.
  static Tensor from_bools(Shape shape, std::vector<std::uint8_t> values);

  [[nodiscard]] ElemType type() const { return type_; }
  [[nodiscard]] const Shape& shape() const { return shape_; }
  [[nodiscard]] std::int64_t dim() const { return static_cast<std::int64_t>(shape_.size()); }
  /// Size of dimension i; negative i counts from the end as in PyTorch.
  [[nodiscard]] std::int64_t size(std::int64_t i) const;
  [[nodiscard]] std::int64_t numel() const { return mhaviz::numel(shape_); }
  [[nodiscard]] bool is_floating() const {
    return type_ == ElemType::f32 || type_ == ElemType::f64;
  }

  /// Typed view; T must match the element type (float: f32, double: f64,
  /// std::uint8_t: boolean or u8). Throws std::logic_error otherwise.
  template <typename T>
  [[nodiscard]] std::span<T> data();
  template <typename T>
  [[nodiscard]] std::span<const T> data() const;

  /// Element at a flat (row-major) index, converted to double (for display and tests).
  [[nodiscard]] double value(std::int64_t flat_index) const;
  /// Raw bytes, little-endian on the platforms we build for.
  [[nodiscard]] std::span<const std::byte> bytes() const;
  [[nodiscard]] std::span<std::byte> bytes();

  /// Same values in another element type (float<->double, bool/u8 -> 0/1).
  [[nodiscard]] Tensor to(ElemType type) const;
  /// Same data, new shape with the same element count (shares the elements).
  [[nodiscard]] Tensor reshaped(Shape shape) const;
  /// True when both tensors hold the same elements in memory (one was copied from the other
  /// and neither has been written since).
  [[nodiscard]] bool shares_storage_with(const Tensor& other) const {
    return storage_ == other.storage_;
  }
  /// Identifies the element storage (equal for tensors that share it).
  [[nodiscard]] const void* storage_id() const { return storage_.get(); }

 private:
  ElemType type_ = ElemType::f32;
  Shape shape_;
  using Storage =
      std::variant<AlignedVector<float>, AlignedVector<double>, AlignedVector<std::uint8_t>>;
  /// The storage of a writable access: copied first when another Tensor shares it.
  Storage& own();
  [[nodiscard]] const Storage& stored() const { return *storage_; }

  std::shared_ptr<Storage> storage_ = std::make_shared<Storage>();
};

}  // namespace mhaviz
