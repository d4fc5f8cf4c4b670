#pragma once
/// \file
/// NumPy's .npz format: a zip archive of .npy members, stored (np.savez) or deflated
/// (np.savez_compressed). Read and written through libzip.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string_view>

#include "mhaviz/core/base/tensor_map.hpp"
#include "mhaviz/core/io/streamed_tensors.hpp"

namespace mhaviz::io {

/// Largest uncompressed npz member accepted (4 GiB): a bound on what a small compressed file
/// can make the reader allocate.
inline constexpr std::uint64_t kMaxNpzMemberBytes = 4ULL << 30;

/// Reads every member; names lose their ".npy" suffix (np.savez(f, query=q) gives "query").
/// Each member's declared size is checked against kMaxNpzMemberBytes and against what its
/// compressed size can hold before reading, and its .npy header against the bytes read.
/// Throws InvalidInput naming the file, the member and the problem.
TensorMap read_npz(const std::filesystem::path& path);

/// Parses the bytes of an .npz file held in memory, with the same checks and messages as
/// read_npz; `name` starts every error message (e.g. the file name). `bytes` is only read and
/// must stay alive for the duration of the call.
TensorMap parse_npz(std::span<const std::byte> bytes, std::string_view name);

/// Writes every tensor as "<name>.npy", atomically (temporary file in the same directory, then
/// rename), each member streamed from the tensor's own bytes: stored as numpy.savez writes, or,
/// when `compressed`, deflated (zlib level 1) as numpy.savez_compressed's format. Throws
/// InvalidInput on I/O errors.
void write_npz(const std::filesystem::path& path, const TensorMap& tensors, bool compressed = true);

/// The same for tensors some of which are made in pieces while the archive is written (on a
/// thread of its own, a few pieces ahead of libzip): the file is byte for byte the one
/// write_npz writes for the whole tensors (apart from the members' times). What making a piece
/// throws is thrown, after the name of the file; the old file is then kept.
void write_npz_streamed(const std::filesystem::path& path, const StreamedTensors& tensors,
                        bool compressed = true);

}  // namespace mhaviz::io
