#pragma once
// The value the GUI thread hands to the compute worker; the result and analyses that come back
// are document/computed.hpp's ResultPtr and AnalysesPtr. They cross threads by value (a request
// is a snapshot; a result and its analyses are shared read-only).

#include <QMetaType>
#include <QtGlobal>
#include <memory>

#include "document/computed.hpp"
#include "mhaviz/core/base/tensor_map.hpp"
#include "mhaviz/core/spec/config.hpp"

namespace mhaviz::ui {

/// One computation to run: the settings snapshot and the generation that identifies it.
/// Generations increase with every submission; results carry theirs so that the computation can
/// drop stale ones.
struct ComputeRequest {
  quint64 generation = 0;
  mhaviz::Config config;
  /// The user's tensors (PyTorch names) replacing generated ones; null: all generated.
  std::shared_ptr<const mhaviz::io::TensorMap> tensors;
  /// When every map exceeds the memory limit the weights are computed reduced
  /// (mhaviz/core/long_context/long_context.hpp): for this batch element, folded by block max or
  /// mean.
  int batch = 0;
  bool reduceMax = false;
  /// The region of the reduced view (a zoom): query rows [queryBegin, queryEnd) and key
  /// columns [keyBegin, keyEnd); an end of -1 means the last row / column (the whole map).
  qint64 queryBegin = 0, queryEnd = -1, keyBegin = 0, keyEnd = -1;
  /// At most this many values per map down and across (0: the reduced view's default, about a
  /// screen): a zoomed region is folded to the pixels of the map that shows it.
  qint64 maxRows = 0, maxCols = 0;
};

/// Registers the types above for queued (cross-thread) signal delivery. Idempotent.
void registerComputeMetaTypes();

}  // namespace mhaviz::ui

Q_DECLARE_METATYPE(mhaviz::ui::ComputeRequest)
Q_DECLARE_METATYPE(mhaviz::ui::ResultPtr)
Q_DECLARE_METATYPE(mhaviz::ui::AnalysesPtr)
