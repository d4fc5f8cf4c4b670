#pragma once
/// \file
/// Reading and writing a tensors file by its extension: .npz, .safetensors or .npy.

#include <filesystem>
#include <string>

#include "mhaviz/core/base/tensor_map.hpp"
#include "mhaviz/core/io/streamed_tensors.hpp"

namespace mhaviz::io {

/// The extension by which files are told apart here and elsewhere (model::names_model_index):
/// lower-cased, with its dot (".npz"); empty when there is none.
std::string lowercase_extension(const std::filesystem::path& path);

/// .npz and .safetensors give all their tensors; .npy gives one tensor named by the file stem
/// ("query.npy" -> "query"). The extension is matched case-insensitively. Throws InvalidInput
/// for an unknown extension (naming the supported ones) or a bad file.
TensorMap read_tensor_file(const std::filesystem::path& path);

/// Writes by extension: .npz (members stored like numpy.savez, or deflated like
/// numpy.savez_compressed with `compress_npz`), .safetensors, or .npy holding exactly one
/// tensor. Atomic; each tensor's bytes are streamed to the file, never copied into one buffer.
/// Throws InvalidInput for an unknown extension or an .npy with other than one tensor.
void write_tensor_file(const std::filesystem::path& path, const TensorMap& tensors,
                       bool compress_npz = false);

/// The same for tensors some of which are made in pieces while the file is written (see
/// write_npz and write_safetensors; an .npy's one tensor is joined first).
void write_tensor_file_streamed(const std::filesystem::path& path, const StreamedTensors& tensors,
                                bool compress_npz = false);

}  // namespace mhaviz::io
