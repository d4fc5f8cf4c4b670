#pragma once
// The "View" group of the left panel: batch element, stage, colormap, colour scale, which heads,
// head average and the reduction rule for maps larger than the screen. Edits go to
// SessionController::setView (not undoable: they change the picture, not the computation).
// GUI thread only.

#include <QGroupBox>
#include <functional>

#include "ui/render/view_options.hpp"
#include "ui/window/compute_request.hpp"

class QCheckBox;
class QComboBox;
class QSpinBox;

namespace mhaviz::ui {

class SessionController;

class ViewControls : public QGroupBox {
  Q_OBJECT

 public:
  explicit ViewControls(SessionController* controller, QWidget* parent = nullptr);

 private:
  void edit(const std::function<void(ViewOptions&)>& change);
  void showView(const ViewOptions& view);
  /// Ranges that depend on the result: batch elements 0..N-1, heads 0..H-1.
  void showResultShape(const ResultPtr& result);

  SessionController* m_controller;
  bool m_updating = false;
  QSpinBox* m_batch = nullptr;
  QComboBox* m_stage = nullptr;
  QComboBox* m_colormap = nullptr;
  QCheckBox* m_perHead = nullptr;
  QComboBox* m_head = nullptr;
  QCheckBox* m_average = nullptr;
  QComboBox* m_reduce = nullptr;
};

/// Every stage in selector order, and every colormap, with the names the window shows.
QList<Stage> allStages();
QList<Colormap> allColormaps();
QString colormapName(Colormap colormap);

}  // namespace mhaviz::ui
