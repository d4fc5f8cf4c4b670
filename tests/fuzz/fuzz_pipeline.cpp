// libFuzzer target: the whole "configuration + tensors file -> make_problem -> validate ->
// forward" path a user drives by opening two files.
//
// Input: configuration JSON, a NUL byte, then the bytes of a tensors file (an .npz when they
// start with "PK", otherwise .safetensors); no NUL means no tensors file. Sizes are clamped
// small (L, S, E, kdim, vdim <= 16, N <= 4) so that one input runs in milliseconds; the
// memory check is exercised on the unclamped configuration first.
//
// Oracles beyond "no crash / no sanitizer report / only InvalidInput":
// - a configuration that passes check_memory has sizes whose products really are below the
//   limit (the estimate must not wrap around);
// - once validate() accepts a problem, forward() does not reject it;
// - the result holds no more bytes than estimate_memory() promised.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string_view>

#include "fuzz_common.hpp"
#include "mhaviz/core/forward/forward.hpp"
#include "mhaviz/core/io/config_json.hpp"
#include "mhaviz/core/io/npz.hpp"
#include "mhaviz/core/io/safetensors.hpp"
#include "mhaviz/core/plan/memory.hpp"
#include "mhaviz/core/plan/problem.hpp"
#include "mhaviz/core/spec/config.hpp"

namespace {

using mhaviz::Config;
using mhaviz::InvalidInput;

constexpr std::uint64_t kLimit = 32ULL << 20;  // bytes; what check_memory is given
constexpr std::int64_t kMaxLen = 16;           // L, S, E, kdim, vdim after clamping
constexpr std::int64_t kMaxBatch = 4;          // N after clamping

using u128 = unsigned __int128;

/// A lower bound of the real memory need: the query and the per-head score tensors.
/// Exact in 128 bits, so it cannot wrap for int64 sizes.
void check_estimate_does_not_wrap(const Config& c) {
  try {
    mhaviz::validate_config(c);
  } catch (const InvalidInput&) {
    return;  // sizes are not all positive: check_memory's answer is not meaningful
  }
  bool accepted = true;
  try {
    mhaviz::check_memory(c, kLimit);
  } catch (const InvalidInput&) {
    accepted = false;
  }
  if (!accepted) return;
  const auto u = [](std::int64_t v) { return static_cast<u128>(v); };
  const u128 query = u(c.batch()) * u(c.tgt_len) * u(c.embed_dim);
  const u128 scores = u(c.batch()) * u(c.num_heads) * u(c.tgt_len) * u(c.src_len);
  const u128 keys = u(c.batch()) * u(c.src_len) * (u(c.k_dim()) + u(c.v_dim()));
  if (query > kLimit || scores > kLimit || keys > kLimit) __builtin_trap();
}

void clamp(std::int64_t& v, std::int64_t hi) { v = std::min(v, hi); }

void clamp_sizes(Config& c) {
  clamp(c.embed_dim, kMaxLen);
  clamp(c.num_heads, kMaxLen);
  clamp(c.tgt_len, kMaxLen);
  clamp(c.src_len, kMaxLen);
  if (c.kdim) clamp(*c.kdim, kMaxLen);
  if (c.vdim) clamp(*c.vdim, kMaxLen);
  if (c.batch_size) clamp(*c.batch_size, kMaxBatch);
}

mhaviz::io::TensorMap parse_tensors(std::span<const std::byte> bytes) {
  if (bytes.empty()) return {};
  if (bytes.size() >= 2 && bytes[0] == std::byte{'P'} && bytes[1] == std::byte{'K'}) {
    return mhaviz::io::parse_npz(bytes, "fuzz.npz");
  }
  return mhaviz::io::parse_safetensors(bytes, "fuzz.safetensors");
}

void run(const std::uint8_t* data, std::size_t size) {
  const auto* nul = static_cast<const std::uint8_t*>(std::memchr(data, 0, size));
  const std::size_t text_size = nul != nullptr ? static_cast<std::size_t>(nul - data) : size;
  Config config =
      mhaviz::io::parse_config_json(mhaviz::fuzz::as_text(data, text_size), "fuzz.json");
  check_estimate_does_not_wrap(config);

  clamp_sizes(config);
  mhaviz::check_memory(config, kLimit);
  const auto tensor_bytes = nul != nullptr ? mhaviz::fuzz::as_bytes(nul + 1, size - text_size - 1)
                                           : std::span<const std::byte>{};
  const mhaviz::io::TensorMap tensors = parse_tensors(tensor_bytes);
  const mhaviz::Problem problem = mhaviz::make_problem(config, tensors, "fuzz tensors");

  std::int64_t static_src_len = -1;
  if (problem.inputs.static_k && problem.inputs.static_k->shape().size() == 3) {
    static_src_len = problem.inputs.static_k->shape()[1];
  }
  mhaviz::check_memory(problem.config, kLimit, static_src_len);
  mhaviz::validate(problem.config, problem.params, problem.inputs);

  mhaviz::RunControl control;
  control.threads = 1;
  std::optional<mhaviz::ForwardResult> result;
  try {
    result.emplace(mhaviz::forward(problem.config, problem.params, problem.inputs, control));
  } catch (const InvalidInput&) {
    __builtin_trap();  // validate() accepted what forward() rejects
  }
  if (result->bytes() > mhaviz::estimate_memory(problem.config, static_src_len)) {
    __builtin_trap();  // the memory check under-estimated what the result holds
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  mhaviz::fuzz::expect_parsed_or_rejected([&] { run(data, size); });
  return 0;
}
