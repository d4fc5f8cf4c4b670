// The Graphormer-style per-head bias: shortest-path distances on a graph over the positions,
// turned into an additive bias per head (Ying et al., 2021, "spatial encoding").
#include <algorithm>
#include <deque>
#include <set>

#include "base/rng.hpp"
#include "mask_grid.hpp"
#include "mhaviz/core/gen/masks.hpp"

namespace mhaviz::gen {

namespace {
// Stream numbers of the mask seed, so edges and table do not share draws.
constexpr std::uint64_t kEdgeStream = 0x65646765ULL;   // "edge"
constexpr std::uint64_t kTableStream = 0x7461626cULL;  // "tabl"
}  // namespace

std::vector<std::array<std::int64_t, 2>> graph_edges(const Config& c) {
  const AttnMaskSpec& m = c.attn_mask_spec;
  const std::int64_t nodes = std::max(c.tgt_len, c.src_len);
  std::set<std::array<std::int64_t, 2>> edges;
  for (const auto& e : m.edges) {
    if (e[0] != e[1]) edges.insert({std::min(e[0], e[1]), std::max(e[0], e[1])});
  }
  if (m.edge_probability > 0.0) {
    mhaviz::detail::Rng rng(mask_seed(c), kEdgeStream);
    for (std::int64_t u = 0; u < nodes; ++u) {
      for (std::int64_t v = u + 1; v < nodes; ++v) {
        if (rng.uniform() < m.edge_probability) edges.insert({u, v});
      }
    }
  }
  return {edges.begin(), edges.end()};
}

std::vector<std::int64_t> shortest_paths(std::int64_t nodes,
                                         const std::vector<std::array<std::int64_t, 2>>& edges) {
  std::vector<std::vector<std::int64_t>> adjacent(static_cast<std::size_t>(nodes));
  for (const auto& e : edges) {
    adjacent[static_cast<std::size_t>(e[0])].push_back(e[1]);
    adjacent[static_cast<std::size_t>(e[1])].push_back(e[0]);
  }
  std::vector<std::int64_t> dist(static_cast<std::size_t>(nodes * nodes), -1);
  for (std::int64_t s = 0; s < nodes; ++s) {
    const auto row = static_cast<std::size_t>(s * nodes);
    std::deque<std::int64_t> queue = {s};
    dist[row + static_cast<std::size_t>(s)] = 0;
    while (!queue.empty()) {
      const std::int64_t u = queue.front();
      queue.pop_front();
      for (const std::int64_t v : adjacent[static_cast<std::size_t>(u)]) {
        std::int64_t& d = dist[row + static_cast<std::size_t>(v)];
        if (d < 0) {
          d = dist[row + static_cast<std::size_t>(u)] + 1;
          queue.push_back(v);
        }
      }
    }
  }
  return dist;
}

namespace detail {

void fill_graph(const Config& c, MaskGrid& g) {
  const AttnMaskSpec& m = c.attn_mask_spec;
  const std::int64_t nodes = std::max(c.tgt_len, c.src_len);
  const std::vector<std::int64_t> dist = shortest_paths(nodes, graph_edges(c));
  const std::int64_t H = c.num_heads;
  const std::int64_t entries = m.max_distance + 2;  // distances 0..max_distance, then "farther"
  std::vector<double> table;
  if (m.graph_bias == GraphBias::table) {
    // Row h holds head h's entries for distance 0, 1, ..., max_distance, farther/unreachable.
    mhaviz::detail::Rng rng(mask_seed(c), kTableStream);
    table.resize(static_cast<std::size_t>(H * entries));
    for (double& t : table) t = m.table_scale * rng.normal();
  }
  const std::vector<double> slopes = alibi_slopes(H);
  for (std::int64_t b = 0; b < g.blocks; ++b) {
    const std::int64_t h = b % H;
    for (std::int64_t i = 0; i < g.L; ++i) {
      for (std::int64_t j = 0; j < g.S; ++j) {
        const std::int64_t d = dist[static_cast<std::size_t>(i * nodes + j)];
        const std::size_t k = g.at(b, i, j);
        if (m.graph_bias == GraphBias::table) {
          const std::int64_t e = d < 0 ? entries - 1 : std::min(d, entries - 1);
          g.added[k] = table[static_cast<std::size_t>(h * entries + e)];
        } else if (d < 0) {
          g.masked[k] = 1;
        } else {
          g.added[k] = -slopes[static_cast<std::size_t>(h)] * static_cast<double>(d);
        }
      }
    }
  }
}

MaskGrid::MaskGrid(std::int64_t blocks_, std::int64_t rows, std::int64_t cols, bool with_values)
    : blocks(blocks_),
      L(rows),
      S(cols),
      flags(ElemType::boolean, {blocks_ * rows * cols}),
      masked(flags.data<std::uint8_t>()),
      added(with_values ? static_cast<std::size_t>(blocks_ * rows * cols) : 0U, 0.0) {}

void MaskGrid::repeat_block_0() {
  const auto block = static_cast<std::ptrdiff_t>(L * S);
  for (std::int64_t b = 1; b < blocks; ++b) {
    std::copy_n(masked.begin(), block, masked.begin() + b * block);
    if (!added.empty()) std::copy_n(added.begin(), block, added.begin() + b * block);
  }
}

Tensor MaskGrid::to_tensor(Shape shape, MaskDType dtype, double masked_value,
                           DType float_dtype) const {
  if (dtype == MaskDType::boolean) return flags.reshaped(std::move(shape));
  std::vector<double> values(masked.size());
  for (std::size_t k = 0; k < values.size(); ++k) {
    values[k] = masked[k] != 0 ? masked_value : added.empty() ? 0.0 : added[k];
  }
  const Tensor t = Tensor::from<double>(std::move(shape), std::move(values));
  return float_dtype == DType::float64 ? t : t.to(ElemType::f32);
}

}  // namespace detail

}  // namespace mhaviz::gen
