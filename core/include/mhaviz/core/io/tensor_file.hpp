#pragma once
/// \file
/// Reading and writing a tensors file by its extension: .npz, .safetensors or .npy.

#include <filesystem>

#include "mhaviz/core/tensor_map.hpp"

namespace mhaviz::io {

/// .npz and .safetensors give all their tensors; .npy gives one tensor named by the file stem
/// ("query.npy" -> "query"). The extension is matched case-insensitively. Throws InvalidInput
/// for an unknown extension (naming the supported ones) or a bad file.
TensorMap read_tensor_file(const std::filesystem::path& path);

/// Writes by extension (.npz compressed, .safetensors, or .npy holding exactly one tensor).
/// Atomic. Throws InvalidInput for an unknown extension or an .npy with other than one tensor.
void write_tensor_file(const std::filesystem::path& path, const TensorMap& tensors);

}  // namespace mhaviz::io
