#pragma once
// The model view's canvas (model_view.hpp): shows the finished picture at its size with the
// selected map outlined; on the layers × heads grid, hovering names the cell under the pointer,
// a click selects a map's layer (ModelView::layerSelected), a double click opens it
// (ModelView::layerChosen) and its last release selects nothing (it comes after the full view
// moved the canvas, to wherever the pointer then lies); asks the view to draw again when its
// size changes. GUI thread only.

#include <QImage>
#include <QWidget>
#include <optional>

#include "model/model_grid_layout.hpp"

namespace mhaviz::ui {

class ModelView;

class ModelCanvas : public QWidget {
 public:
  explicit ModelCanvas(ModelView* view);

  QImage image;
  int imageBatch = 0;      // the batch element the picture shows (its title, so its layout)
  bool gridShown = false;  // the layers × heads grid, whose maps can be clicked

  /// The grid's layout, made with the picture on the drawing task (measuring every token label
  /// took milliseconds of the GUI thread at each paint, click and pointer move); null when the
  /// picture is not a grid of the model shown.
  std::optional<ModelGridLayout> gridLayout;

  /// The picture's layout (null without a grid on screen).
  [[nodiscard]] std::optional<ModelGridLayout> layout() const;

 protected:
  void paintEvent(QPaintEvent*) override;
  void resizeEvent(QResizeEvent*) override;
  void mouseMoveEvent(QMouseEvent* e) override;
  void leaveEvent(QEvent*) override;
  void mousePressEvent(QMouseEvent* e) override;
  void mouseReleaseEvent(QMouseEvent* e) override;
  void mouseDoubleClickEvent(QMouseEvent* e) override;

 private:
  ModelView* m_view;
  bool m_doubleClicked = false;  // until the release that ends the double click
};

}  // namespace mhaviz::ui
