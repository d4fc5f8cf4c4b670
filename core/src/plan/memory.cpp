#include "mhaviz/core/plan/memory.hpp"

#include <algorithm>
#include <array>
#include <cstdio>

#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/gen/mask_pattern.hpp"

namespace mhaviz {

namespace {
/// A byte or element count that saturates at the largest uint64 instead of wrapping, so that
/// sizes from an untrusted configuration (e.g. embed_dim = 2^62, whose products wrap to 0)
/// can never estimate below the limit.
class Count {
 public:
  constexpr Count(std::uint64_t v = 0) : v_(v) {}  // implicit: counts mix with plain numbers
  [[nodiscard]] constexpr std::uint64_t value() const { return v_; }
  friend constexpr Count operator+(Count a, Count b) {
    std::uint64_t r = 0;
    return __builtin_add_overflow(a.v_, b.v_, &r) ? Count(kMax) : Count(r);
  }
  friend constexpr Count operator*(Count a, Count b) {
    std::uint64_t r = 0;
    return __builtin_mul_overflow(a.v_, b.v_, &r) ? Count(kMax) : Count(r);
  }
  constexpr Count& operator+=(Count b) { return *this = *this + b; }

 private:
  static constexpr std::uint64_t kMax = ~std::uint64_t{0};
  std::uint64_t v_;
};

struct Sizes {
  Count N, H, L, E, S, Sx, kd, vd, elem;
};
Sizes sizes(const Config& c, std::int64_t static_src_len) {
  const auto u = [](std::int64_t v) { return static_cast<std::uint64_t>(v < 0 ? 0 : v); };
  Sizes z{};
  z.N = u(c.batch());
  z.H = u(c.num_heads);
  z.L = u(c.tgt_len);
  z.E = u(c.embed_dim);
  z.S = u(c.source_keys(static_src_len));
  z.Sx = z.S + u(c.appended_keys());  // S′ (Config::key_columns), saturating
  z.kd = u(c.k_dim());
  z.vd = u(c.v_dim());
  z.elem = c.element_bytes();
  return z;
}

Count result_bytes(const Config& c, std::int64_t static_src_len) {
  const Sizes z = sizes(c, static_src_len);
  // Per head only the weights (and weights_before_dropout) are kept; raw scores, the per-head
  // mask and scores are derived when shown (derived_maps.hpp).
  const Count per_head = z.N * z.H * z.L * z.Sx;
  Count n = 0;
  n += z.N * z.L * z.E + 2 * z.N * z.Sx * z.E;              // q, k, v
  n += per_head * (c.training && c.dropout > 0.0 ? 2 : 1);  // weights (+ before dropout)
  // The merged mask at its broadcast shape, for the generated masks (a mask given as a tensor
  // is counted by estimate_memory).
  const bool attn = c.attn_mask_spec.kind != gen::MaskKind::none;
  const bool padding = c.key_padding_spec.kind != gen::PaddingKind::none;
  if (attn && c.attn_mask_spec.shape == gen::MaskShape::three_d) {
    n += per_head;
  } else if (attn || padding) {
    n += (padding ? z.N : Count(1)) * (attn ? z.L : Count(1)) * z.Sx;
  }
  n += 3 * z.N * z.L * z.E;  // head_output, merged, output
  // attn_output shares output's storage except in the (L, N, E) layout; per-head
  // attn_output_weights share the weights' storage.
  if (c.batched() && !c.batch_first) n += z.N * z.L * z.E;
  if (c.need_weights && c.average_attn_weights) n += z.N * z.L * z.Sx;
  // The parameters the result keeps (ForwardResult::params).
  n += c.packed_projection() ? 3 * z.E * z.E : z.E * z.E + z.E * (z.kd + z.vd);
  n += z.E * z.E;
  if (c.bias) n += 4 * z.E;
  if (c.add_bias_kv) n += 2 * z.E;
  return n * z.elem + z.Sx * 16;  // + the column descriptions
}

}  // namespace

std::uint64_t estimate_result_bytes(const Config& c, std::int64_t static_src_len) {
  return result_bytes(c, static_src_len).value();
}

std::uint64_t estimate_memory(const Config& c, std::int64_t static_src_len) {
  const Sizes z = sizes(c, static_src_len);
  Count n = 0;
  n += z.N * z.L * z.E + z.N * z.S * (z.kd + z.vd);  // inputs
  n += z.N * z.L * z.E + 2 * z.N * z.S * z.E;        // projected q, k, v of every token
  n += z.N * z.H * z.L * z.Sx;  // canonicalised masks, merged mask when given (3-D at most)
  n += z.H * z.L * z.Sx;        // a derived stage shown for one batch element
  return (result_bytes(c, static_src_len) + n * z.elem).value();
}

std::uint64_t estimate_reduced_memory(const Config& c, int threads, std::int64_t static_src_len) {
  const Sizes z = sizes(c, static_src_len);
  const Count t = static_cast<std::uint64_t>(threads < 1 ? 1 : threads);
  Count n = 0;
  n += z.N * z.L * z.E + z.N * z.S * (z.kd + z.vd);  // inputs
  n += z.L * z.E + z.Sx * z.E;                       // projected queries and keys of one n
  n += z.E * z.Sx;                                   // every head's keys transposed
  // per thread: a stripe's scores and mask values of one key chunk (at most 2 x 128 x 1024)
  // and its block sums (128 rows of at most 1024 columns)
  n += t * (3 * 128 * 1024);
  // folded maps: at most a screen's worth (1024 x 1024 values) each
  n += (z.H + 1) * std::min<std::uint64_t>(z.L.value(), 1024) *
       std::min<std::uint64_t>(z.Sx.value(), 1024);
  n += c.packed_projection() ? 4 * z.E * z.E : 2 * z.E * z.E + z.E * (z.kd + z.vd);
  Count bytes = n * z.elem;
  // The mask tensors a configuration generates (make_reduced_problem), as they are: bool 1
  // byte. A pattern (causal, window, ...) is never made: its rows are generated as needed.
  const Count mask_elem = c.attn_mask_spec.dtype == gen::MaskDType::boolean ? Count(1) : z.elem;
  if (c.attn_mask_spec.kind != gen::MaskKind::none && !gen::MaskPattern::of(c)) {
    const Count blocks = c.attn_mask_spec.shape == gen::MaskShape::three_d ? z.N * z.H : Count(1);
    bytes += blocks * z.L * z.S * mask_elem;
  }
  if (c.key_padding_spec.kind != gen::PaddingKind::none) bytes += z.N * z.S * z.elem;
  return bytes.value();
}

bool needs_reduced_view(const Config& config, std::uint64_t limit, std::int64_t static_src_len) {
  return estimate_memory(config, static_src_len) > limit;
}

void check_reduced_memory(const Config& config, std::uint64_t limit, std::int64_t static_src_len) {
  const std::uint64_t need = estimate_reduced_memory(config, 2, static_src_len);
  if (need > limit) {
    throw InvalidInput("this configuration needs " + format_bytes(need) +
                       " even in the reduced view (the limit is " + format_bytes(limit) +
                       "). Reduce L, S or embed_dim, use a 2-D bool attn_mask, or raise the "
                       "memory limit.");
  }
}

std::uint64_t estimate_part_bytes(const Config& config, std::int64_t heads, std::int64_t rows,
                                  std::int64_t static_src_len) {
  const std::int64_t sx = config.key_columns(config.source_keys(static_src_len));
  return static_cast<std::uint64_t>(heads * rows * sx) * config.element_bytes();
}

std::string format_bytes(std::uint64_t bytes) {
  static constexpr std::array<const char*, 5> units = {"B", "KiB", "MiB", "GiB", "TiB"};
  auto v = static_cast<double>(bytes);
  std::size_t i = 0;
  while (v >= 1024.0 && i + 1 < units.size()) {
    v /= 1024.0;
    ++i;
  }
  char buf[32];
  if (i == 0) {
    std::snprintf(buf, sizeof buf, "%llu B", static_cast<unsigned long long>(bytes));
  } else {
    std::snprintf(buf, sizeof buf, v < 10.0 ? "%.1f %s" : "%.0f %s", v, units[i]);
  }
  return buf;
}

void check_memory(const Config& config, std::uint64_t limit, std::int64_t static_src_len) {
  const std::uint64_t need = estimate_memory(config, static_src_len);
  if (need > limit) {
    throw InvalidInput("this configuration needs " + format_bytes(need) + "; the limit is " +
                       format_bytes(limit) +
                       ". Reduce L, S, N or num_heads, or raise the memory limit.");
  }
}

}  // namespace mhaviz
