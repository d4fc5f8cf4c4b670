#pragma once
/// \file
/// How much memory a forward pass will hold, known before computing.

#include <cstdint>
#include <string>

#include "mhaviz/core/spec/config.hpp"

namespace mhaviz {

/// Default limit on the memory one result may take: 4 GiB.
inline constexpr std::uint64_t kDefaultMemoryLimit = 4ULL << 30;

/// Bytes the ForwardResult of this config will hold (ForwardResult::bytes(), all its tensors).
/// `static_src_len` replaces src_len when static_k is given.
std::uint64_t estimate_result_bytes(const Config& config, std::int64_t static_src_len = -1);

/// Peak bytes of a forward pass: the result, plus the inputs and parameters it is computed
/// from and the working buffers in flight. This is what check_memory compares to the limit.
std::uint64_t estimate_memory(const Config& config, std::int64_t static_src_len = -1);

/// Bytes of `rows` query rows of `heads` heads of the weights, one value per key column (S′): a
/// part of them as `mhaviz-cli run --head --queries` writes it. `static_src_len` as above.
std::uint64_t estimate_part_bytes(const Config& config, std::int64_t heads, std::int64_t rows,
                                  std::int64_t static_src_len = -1);

/// "12.3 GiB", "512 KiB", "17 B".
std::string format_bytes(std::uint64_t bytes);

/// Throws InvalidInput ("needs 12.3 GiB; the limit is 4 GiB ...") when the estimate exceeds
/// the limit.
void check_memory(const Config& config, std::uint64_t limit = kDefaultMemoryLimit,
                  std::int64_t static_src_len = -1);

/// Peak bytes of the reduced long-context view (long_context.hpp) on `threads` threads: the
/// inputs and mask tensors, the projected queries and keys of one batch element, a stripe of
/// query rows per thread and the folded maps. It grows with L + S, not with L x S (except for
/// the mask tensors a configuration generates).
std::uint64_t estimate_reduced_memory(const Config& config, int threads = 2,
                                      std::int64_t static_src_len = -1);

/// Whether every map of this configuration does not fit in `limit` (estimate_memory) and the
/// window and `mhaviz-cli export` show the reduced view instead.
bool needs_reduced_view(const Config& config, std::uint64_t limit = kDefaultMemoryLimit,
                        std::int64_t static_src_len = -1);

/// Throws InvalidInput when even the reduced view exceeds the limit.
void check_reduced_memory(const Config& config, std::uint64_t limit = kDefaultMemoryLimit,
                          std::int64_t static_src_len = -1);

}  // namespace mhaviz
