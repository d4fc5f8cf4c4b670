#include "mhaviz/core/io/tensor_file.hpp"

#include <algorithm>
#include <cctype>
#include <string>

#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/io/file_bytes.hpp"
#include "mhaviz/core/io/npy.hpp"
#include "mhaviz/core/io/npz.hpp"
#include "mhaviz/core/io/safetensors.hpp"

namespace mhaviz::io {

std::string lowercase_extension(const std::filesystem::path& path) {
  std::string ext = path.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext;
}

namespace {

enum class Format { npz, safetensors, npy };

Format format_of(const std::filesystem::path& path) {
  const std::string ext = lowercase_extension(path);
  if (ext == ".npz") return Format::npz;
  if (ext == ".safetensors") return Format::safetensors;
  if (ext == ".npy") return Format::npy;
  throw InvalidInput(display_name(path) + ": unknown tensor file type " +
                     (ext.empty() ? std::string("(no extension)") : "\"" + ext + "\"") +
                     "; use .npz, .safetensors or .npy");
}

}  // namespace

TensorMap read_tensor_file(const std::filesystem::path& path) {
  switch (format_of(path)) {
    case Format::npz:
      return read_npz(path);
    case Format::safetensors:
      return read_safetensors(path);
    case Format::npy: {
      TensorMap tensors;
      tensors.emplace(path.stem().string(), read_npy(path));
      return tensors;
    }
  }
  return {};
}

void write_tensor_file(const std::filesystem::path& path, const TensorMap& tensors,
                       bool compress_npz) {
  write_tensor_file_streamed(path, streamed(tensors), compress_npz);
}

void write_tensor_file_streamed(const std::filesystem::path& path, const StreamedTensors& tensors,
                                bool compress_npz) {
  switch (format_of(path)) {
    case Format::npz:
      write_npz_streamed(path, tensors, compress_npz);
      return;
    case Format::safetensors:
      write_safetensors_streamed(path, tensors);
      return;
    case Format::npy:
      if (tensors.size() != 1) {
        throw InvalidInput(display_name(path) + ": an .npy file holds exactly one tensor, not " +
                           std::to_string(tensors.size()) + "; use .npz or .safetensors");
      }
      write_npy(path, gathered(tensors.begin()->second, tensors.begin()->first));
      return;
  }
}

}  // namespace mhaviz::io
