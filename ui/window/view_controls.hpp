#pragma once
// The "View" group of the left panel: batch element, stage, colormap, colour scale, which heads,
// head average and the reduction rule for maps larger than the screen. Edits go to
// Document::setView (not undoable: they change the picture, not the computation).
// GUI thread only.

#include <QGroupBox>
#include <functional>

#include "document/computed.hpp"
#include "stages/view_options.hpp"

class QCheckBox;
class QComboBox;
class QSpinBox;

namespace mhaviz::ui {

class Document;

class ViewControls : public QGroupBox {
  Q_OBJECT

 public:
  ViewControls(Document* document, QWidget* parent = nullptr);
  /// The batch element the maps show.
  [[nodiscard]] QSpinBox* batchBox() const { return m_batch; }

 private:
  void edit(const std::function<void(ViewOptions&)>& change);
  void showView(const ViewOptions& view);
  /// Ranges that depend on the result: batch elements 0..N-1, heads 0..H-1.
  void showResultShape(const ResultPtr& result);

  Document* m_document;
  bool m_updating = false;
  QSpinBox* m_batch = nullptr;
  QComboBox* m_stage = nullptr;
  QComboBox* m_colormap = nullptr;
  QCheckBox* m_perHead = nullptr;
  QCheckBox* m_autoRange = nullptr;
  QComboBox* m_head = nullptr;
  QCheckBox* m_average = nullptr;
  QComboBox* m_reduce = nullptr;
};

}  // namespace mhaviz::ui
