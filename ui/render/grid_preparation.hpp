#pragma once
// The heatmap grid's background preparation: statistics and screen-sized reductions of big maps
// made as a background task (tasks/latest_task.hpp), never on the GUI thread. Whatever a task
// made for data the grid no longer shows is dropped: every new picture cancels the task.
// GUI thread (the task's body runs on the task's thread and reads the data shared with it).

#include <functional>
#include <memory>
#include <vector>

#include "render/reduce.hpp"
#include "stages/stage_data.hpp"
#include "stages/view_options.hpp"

class QObject;

namespace mhaviz::ui {

class LatestTask;

/// A region of one map waiting to be reduced to screen cells on a pool thread.
struct PendingReduction {
  int map = 0;
  int row0 = 0, col0 = 0;          // first source row and column
  int rows = 0, cols = 0;          // source rows and columns
  int rowBlock = 1, colBlock = 1;  // source cells per screen cell
};

/// Output of one background preparation task (made on its thread, read on the GUI thread).
struct PreparedMaps {
  bool withStats = false;
  StageData stats;           // maps without values; statistics and derived maps when withStats
  std::vector<int> indices;  // map index of each grid
  std::vector<ReducedGrid> grids;
};

/// Copies the statistics (and the maps the task derived) of `prepared` into `data`, the data it
/// was prepared for; false when they are for other maps.
bool takeStats(const PreparedMaps& prepared, StageData& data);

class GridPreparation {
 public:
  /// Gets the task's output to keep: its reduced grids can be moved out (tens of MB for a layer
  /// of 577 tokens; a copy into fresh memory cost the GUI thread ~30 ms).
  using Deliver = std::function<void(PreparedMaps&)>;
  /// Outputs are delivered on `context`'s thread (the grid), never after it is destroyed.
  explicit GridPreparation(QObject* context);
  ~GridPreparation();  // a task still running is cancelled

  /// On: maps with many cells are prepared in the background (HeatmapGrid::
  /// setBackgroundPreparation).
  void setEnabled(bool on) { m_enabled = on; }
  bool enabled() const { return m_enabled; }
  /// True while a statistics task for the current data runs.
  bool preparingStats() const { return m_preparing; }
  /// True while the picture of the current data or view comes from a task.
  bool awaitingPicture() const { return m_awaitingPicture; }
  void setAwaitingPicture(bool on) { m_awaitingPicture = on; }
  void statsArrived() { m_preparing = false; }

  /// Regions waiting for the next launch (renderMap queues them while filling the maps).
  void clearJobs() { m_jobs.clear(); }
  void addJob(const PendingReduction& job) { m_jobs.push_back(job); }
  bool hasJobs() const { return !m_jobs.empty(); }

  /// Starts a task for the queued regions of `data` (and, when `withStats`, its statistics);
  /// starting one cancels the one before. The task reads `data` (whose result keeps the
  /// described maps' memory alive), which must not change while it does (GridContent::edit).
  void launch(std::shared_ptr<const StageData> data, Reduce rule, bool withStats, Deliver deliver);
  /// Drops the running task and the queued regions: the data is about to change.
  void cancel();

 private:
  std::unique_ptr<LatestTask> m_task;
  std::vector<PendingReduction> m_jobs;
  bool m_enabled = false;
  bool m_preparing = false;
  bool m_awaitingPicture = false;
};

}  // namespace mhaviz::ui
