// Dinic's maximum flow (max_flow.hpp).

#include "max_flow.hpp"

#include <algorithm>
#include <limits>

namespace mhaviz::model {

FlowNetwork::FlowNetwork(std::int32_t nodes) : nodes_(nodes) {}

void FlowNetwork::add_edge(std::int32_t from, std::int32_t to, double capacity) {
  if (!(capacity > kNegligible)) return;
  from_.push_back(from);
  to_.push_back(to);
  capacity_.push_back(capacity);
  from_.push_back(to);
  to_.push_back(from);
  capacity_.push_back(0.0);
}

void FlowNetwork::finish() {
  first_.assign(static_cast<std::size_t>(nodes_) + 1, 0);
  for (const std::int32_t v : from_) ++first_[static_cast<std::size_t>(v) + 1];
  for (std::size_t v = 0; v < static_cast<std::size_t>(nodes_); ++v) first_[v + 1] += first_[v];
  order_.assign(from_.size(), 0);
  std::vector<std::int32_t> fill(first_.begin(), first_.end() - 1);
  for (std::size_t e = 0; e < from_.size(); ++e) {
    order_[static_cast<std::size_t>(fill[static_cast<std::size_t>(from_[e])]++)] =
        static_cast<std::int32_t>(e);
  }
}

bool FlowNetwork::levels(std::int32_t source, std::int32_t sink, Workspace& w) const {
  std::fill(w.level.begin(), w.level.end(), -1);
  w.queue.clear();
  w.level[static_cast<std::size_t>(source)] = 0;
  w.queue.push_back(source);
  for (std::size_t head = 0; head < w.queue.size(); ++head) {
    const std::int32_t v = w.queue[head];
    const std::int32_t reached = w.level[static_cast<std::size_t>(sink)];
    if (reached >= 0 && w.level[static_cast<std::size_t>(v)] >= reached) break;  // no use further
    for (std::int32_t i = first_[static_cast<std::size_t>(v)];
         i < first_[static_cast<std::size_t>(v) + 1]; ++i) {
      const auto e = static_cast<std::size_t>(order_[static_cast<std::size_t>(i)]);
      const auto to = static_cast<std::size_t>(to_[e]);
      if (w.level[to] >= 0 || w.residual[e] <= kNegligible) continue;
      w.level[to] = w.level[static_cast<std::size_t>(v)] + 1;
      w.queue.push_back(to_[e]);
    }
  }
  return w.level[static_cast<std::size_t>(sink)] >= 0;
}

// Sends up to `limit` from v towards the sink along edges that go one level down, as much as
// it can (a blocking flow when called at the source); next[] skips the edges found useless.
double FlowNetwork::push(std::int32_t v, std::int32_t sink, double limit, Workspace& w) const {
  if (v == sink) return limit;
  const auto vs = static_cast<std::size_t>(v);
  double sent = 0.0;
  for (std::int32_t& i = w.next[vs]; i < first_[vs + 1]; ++i) {
    const auto e = static_cast<std::size_t>(order_[static_cast<std::size_t>(i)]);
    const auto to = static_cast<std::size_t>(to_[e]);
    if (w.level[to] != w.level[vs] + 1 || w.residual[e] <= kNegligible) continue;
    const double got = push(to_[e], sink, std::min(limit - sent, w.residual[e]), w);
    if (got <= 0.0) continue;
    w.residual[e] -= got;
    w.residual[e ^ 1U] += got;
    sent += got;
    if (limit - sent <= kNegligible) return sent;  // this edge may still carry more: keep it
  }
  return sent;
}

double FlowNetwork::max_flow(std::int32_t source, std::int32_t sink, Workspace& w) const {
  w.residual = capacity_;
  w.level.resize(static_cast<std::size_t>(nodes_));
  w.next.resize(static_cast<std::size_t>(nodes_));
  double flow = 0.0;
  while (levels(source, sink, w)) {
    std::copy(first_.begin(), first_.end() - 1, w.next.begin());
    flow += push(source, sink, std::numeric_limits<double>::infinity(), w);
  }
  return flow;
}

}  // namespace mhaviz::model
