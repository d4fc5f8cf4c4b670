#pragma once
/// \file
/// NumPy's .npy format (format versions 1.0, 2.0 and 3.0): little-endian float32, float64,
/// bool and uint8 arrays, C order or Fortran order (read into C order).

#include <cstddef>
#include <filesystem>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "mhaviz/core/base/tensor.hpp"

namespace mhaviz::io {

/// dtype strings accepted in a .npy header, as numpy writes them.
inline constexpr std::string_view kNpySupportedDtypes =
    "'<f4' (float32), '<f8' (float64), '|b1' (bool), '|u1' (uint8)";

/// Reads one array. Throws InvalidInput naming the file and the problem for a missing,
/// truncated or malformed file or an unsupported dtype.
Tensor read_npy(const std::filesystem::path& path);

/// Parses the bytes of a .npy file. `name` starts every error message (e.g. the file name, or
/// `t.npz: "query"` for an npz member). Every size in the header is checked against
/// bytes.size() before anything is allocated.
Tensor parse_npy(std::span<const std::byte> bytes, std::string_view name);

/// What a .npy holds and where its data starts, read from its first bytes.
struct NpyLayout {
  ElemType type = ElemType::f32;
  Shape shape;
  bool fortran_order = false;
  std::size_t data_start = 0;  ///< offset of the data in the .npy
  std::size_t data_bytes = 0;  ///< the data's size, which is everything after data_start
};

/// The layout of a .npy of `total` bytes that starts with `bytes`: so that a reader can put
/// the data straight into its tensor (an npz member decompressed into it). Throws InvalidInput
/// as parse_npy does for the same bytes; std::nullopt when the preamble or the header goes on
/// past `bytes` (then read more).
std::optional<NpyLayout> npy_layout(std::span<const std::byte> bytes, std::uint64_t total,
                                    std::string_view name);

/// The bytes numpy's np.save would write for this tensor (format 1.0, or 2.0 for a header
/// over 64 KiB; header padded so the data starts at a multiple of 64).
std::vector<std::byte> serialize_npy(const Tensor& tensor);

/// The first part of serialize_npy: magic, version and header; tensor.bytes() follow it.
std::vector<std::byte> npy_header_bytes(const Tensor& tensor);
/// The same for a tensor of this element type and shape.
std::vector<std::byte> npy_header_bytes(ElemType type, const Shape& shape);

/// Writes a .npy file atomically (temporary file + rename). Throws InvalidInput on I/O errors.
void write_npy(const std::filesystem::path& path, const Tensor& tensor);

}  // namespace mhaviz::io
