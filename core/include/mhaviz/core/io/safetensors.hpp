#pragma once
/// \file
/// The safetensors format: an 8-byte little-endian header length, a JSON header
/// {"name": {"dtype", "shape", "data_offsets": [begin, end]}, "__metadata__": {...}}, then one
/// byte buffer. Supported dtypes: F32, F64, BOOL, U8.

#include <cstddef>
#include <filesystem>
#include <span>
#include <string_view>

#include "mhaviz/core/base/tensor_map.hpp"
#include "mhaviz/core/io/streamed_tensors.hpp"

namespace mhaviz::io {

/// Reads every tensor ("__metadata__" is ignored). The header length, each tensor's offsets
/// (inside the buffer, end - begin == numel * dtype size, no overlaps, no unused bytes) are
/// checked before anything is allocated. Throws InvalidInput naming the file, the tensor and
/// the problem.
TensorMap read_safetensors(const std::filesystem::path& path);

/// Parses the bytes of a .safetensors file held in memory, with the same checks and messages
/// as read_safetensors; `name` starts every error message (e.g. the file name).
TensorMap parse_safetensors(std::span<const std::byte> bytes, std::string_view name);

/// Writes the layout safetensors.torch.save_file writes: header padded with spaces to a
/// multiple of 8 bytes, tensors packed in name order. Atomic (temporary file + rename).
void write_safetensors(const std::filesystem::path& path, const TensorMap& tensors);

/// The same for tensors some of which are made in pieces while the file is written (on a
/// thread of its own, a few pieces ahead of the writer): the same bytes as for the whole
/// tensors. What making a piece throws is thrown, after the name of the file; the old file is
/// then kept.
void write_safetensors_streamed(const std::filesystem::path& path, const StreamedTensors& tensors);

}  // namespace mhaviz::io
