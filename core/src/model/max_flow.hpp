#pragma once
// Maximum flow in a directed network with real capacities (Dinic's algorithm: breadth-first
// levels, then blocking flows along them), for attention flow. The network is built once and
// solved for many (source, sink) pairs, each solve with its own Workspace, from any number of
// threads.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace mhaviz::model {

class FlowNetwork {
 public:
  /// Residual capacities and search state of one solve; reused between solves on one thread.
  struct Workspace {
    std::vector<double> residual;
    std::vector<std::int32_t> level, next;
    std::vector<std::int32_t> queue;
  };

  explicit FlowNetwork(std::int32_t nodes);
  /// An edge from → to; capacities of at most kNegligible are left out.
  void add_edge(std::int32_t from, std::int32_t to, double capacity);
  /// Indexes the edges by node; call once, after the last add_edge and before max_flow.
  void finish();
  /// The value of a maximum flow from `source` to `sink` (≥ 0).
  double max_flow(std::int32_t source, std::int32_t sink, Workspace& work) const;
  [[nodiscard]] std::size_t edges() const { return to_.size() / 2; }

  /// Residual capacity below which an edge counts as saturated: a solve's value is exact to
  /// about this times the number of edges.
  static constexpr double kNegligible = 1e-13;

 private:
  bool levels(std::int32_t source, std::int32_t sink, Workspace& work) const;
  double push(std::int32_t v, std::int32_t sink, double limit, Workspace& work) const;

  std::int32_t nodes_;
  // Edge 2k is the k-th added edge, 2k + 1 its reverse (capacity 0).
  std::vector<std::int32_t> from_, to_;
  std::vector<double> capacity_;
  // Built by finish(): node v's edges are order_[first_[v]] to order_[first_[v + 1] - 1].
  std::vector<std::int32_t> first_, order_;
};

}  // namespace mhaviz::model
