#pragma once
// The teaching docks: the stage walk-through (Previous/Next with explanation and PyTorch line),
// the cell breakdown and the shape-flow table. GUI thread only.

#include <QDockWidget>
#include <QImage>
#include <QStringList>
#include <cstdint>
#include <utility>

#include "document/computed.hpp"
#include "mhaviz/core/model/image_grid.hpp"
#include "mhaviz/core/spec/config.hpp"
#include "stages/view_options.hpp"

class QLabel;
class QPushButton;
class QTableWidget;
class QTextBrowser;

namespace mhaviz::ui {

class Document;

/// Previous/Next through the stages in PyTorch's order; shows the current stage's explanation
/// and code line. Changes the view through Document::setView.
class WalkthroughDock : public QDockWidget {
  Q_OBJECT
 public:
  WalkthroughDock(Document* document, QWidget* parent = nullptr);
  /// Moves one stage forward (+1) or back (-1), clamped at the first and last stage.
  void step(int delta);
  [[nodiscard]] QString codeText() const;
  /// "Previous" and "Next" (tests click them).
  [[nodiscard]] QPushButton* previousButton() const { return m_prev; }
  [[nodiscard]] QPushButton* nextButton() const { return m_next; }

 signals:
  /// The shown stage changed (its title and explanation, for the presentation caption).
  void stepShown(const QString& title, const QString& explanation);

 private:
  void showStage(Stage stage);

  Document* m_document;
  QLabel* m_title = nullptr;
  QLabel* m_explanation = nullptr;
  QLabel* m_code = nullptr;
  QString m_codeText;  // the shown PyTorch line(s), plain text
  QPushButton* m_prev = nullptr;
  QPushButton* m_next = nullptr;
};

/// The arithmetic of the clicked cell (see cell_breakdown.hpp).
class BreakdownDock : public QDockWidget {
  Q_OBJECT
 public:
  explicit BreakdownDock(QWidget* parent = nullptr);
  /// Shows cell (row, col) of grid map `map` of `result` drawn with `view`. With `pictures` (the
  /// session is a layer over a model's image, SessionOrigin) the query's and the key's patches
  /// stand under the heading, beside their labels.
  void showCell(const ResultPtr& result, const ViewOptions& view, int map, int row, int col,
                const mhaviz::model::PatchPictures* pictures = nullptr);
  /// The patches shown with the cell last shown (query, key; null where none): tests.
  [[nodiscard]] std::pair<QImage, QImage> patches() const { return m_patches; }
  /// Back to the "click a cell" hint (a new result makes the shown cell stale).
  void clearCell();
  [[nodiscard]] QString html() const;

 private:
  /// The paragraph naming the cell's query and key with their patches ("" without pictures),
  /// the pictures registered with the text as resources.
  QString patchesHtml(const mhaviz::ForwardResult& result, const ViewOptions& view, int row,
                      int col, const mhaviz::model::PatchPictures* pictures);

  QTextBrowser* m_text = nullptr;
  std::pair<QImage, QImage> m_patches;
};

/// mhaviz::shape_flow(config) as a table (step, tensor, symbolic, concrete).
class ShapeFlowDock : public QDockWidget {
  Q_OBJECT
 public:
  explicit ShapeFlowDock(QWidget* parent = nullptr);
  void showConfig(const mhaviz::Config& config);
  [[nodiscard]] QTableWidget* table() const { return m_table; }

 private:
  QTableWidget* m_table = nullptr;
  QList<QStringList> m_shown;  // the rows in the table
};

}  // namespace mhaviz::ui
