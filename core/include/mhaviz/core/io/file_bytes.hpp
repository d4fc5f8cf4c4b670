#pragma once
/// \file
/// Whole-file reads and atomic whole-file writes shared by the file formats.

#include <cstddef>
#include <filesystem>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace mhaviz::io {

/// Reads the whole file. Throws InvalidInput naming the file when it is missing, is a
/// directory or cannot be read.
std::vector<std::byte> read_file_bytes(const std::filesystem::path& path);

/// A whole file's bytes for reading, without copying them: the file mapped read-only where the
/// system can map it (its pages come from the page cache, so a large tensors file is neither
/// cleared nor copied into fresh memory before it is parsed), else read as read_file_bytes
/// does. The file must not be truncated while it is mapped (mhaviz's writers replace files by
/// renaming, which leaves a mapped file whole).
class MappedFile {
 public:
  /// Throws InvalidInput as read_file_bytes does (missing, a directory, unreadable).
  explicit MappedFile(const std::filesystem::path& path);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  [[nodiscard]] std::span<const std::byte> bytes() const { return {data_, size_}; }

 private:
  const std::byte* data_ = nullptr;
  std::size_t size_ = 0;
  bool mapped_ = false;
  std::vector<std::byte> read_;  // when the file could not be mapped
};

/// Writes `bytes` to a temporary file in the same directory as `path` and renames it over
/// `path`, so readers see either the old file or the complete new one, never a partial file.
/// Throws InvalidInput naming the file when the directory is not writable or the disk is full.
void write_file_atomic(const std::filesystem::path& path, std::span<const std::byte> bytes);

/// write_file_atomic for a file made of `parts` written one after the other (e.g. a header,
/// then each tensor's own bytes), never joined in memory.
void write_parts_atomic(const std::filesystem::path& path,
                        std::span<const std::span<const std::byte>> parts);

/// The same for a file too large to hold in memory at once: creates an empty temporary file
/// in the directory of `path` (with the same messages as write_file_atomic when it cannot),
/// calls `write(temporary)` to fill it, then renames it over `path`, which keeps the
/// permissions of the file it replaces. When `write` throws, the temporary file is removed and
/// `path` is left as it was.
void replace_file_atomic(const std::filesystem::path& path,
                         const std::function<void(const std::filesystem::path&)>& write);

/// The file name as messages show it (the name the user typed, e.g. "data/t.npz").
std::string display_name(const std::filesystem::path& path);

}  // namespace mhaviz::io
