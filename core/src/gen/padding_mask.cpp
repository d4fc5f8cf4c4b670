// key_padding_mask generation: valid lengths or explicit padded keys per batch element.
#include "mask_grid.hpp"
#include "mhaviz/core/gen/masks.hpp"

namespace mhaviz::gen {

std::optional<Tensor> make_key_padding_mask(const Config& c) {
  const KeyPaddingSpec& p = c.key_padding_spec;
  if (p.kind == PaddingKind::none) return std::nullopt;
  check_key_padding_spec(c);
  // One block of N rows (one per batch element) and S columns.
  detail::MaskGrid g(1, c.batch(), c.src_len, false);
  for (std::int64_t n = 0; n < c.batch(); ++n) {
    const auto un = static_cast<std::size_t>(n);
    if (p.kind == PaddingKind::lengths) {
      for (std::int64_t j = p.valid_lengths[un]; j < c.src_len; ++j) g.masked[g.at(0, n, j)] = 1;
    } else {
      for (const std::int64_t j : p.padded_keys[un]) g.masked[g.at(0, n, j)] = 1;
    }
  }
  Shape shape = c.batched() ? Shape{c.batch(), c.src_len} : Shape{c.src_len};
  return g.to_tensor(std::move(shape), p.dtype, p.masked_value, c.dtype);
}

}  // namespace mhaviz::gen
