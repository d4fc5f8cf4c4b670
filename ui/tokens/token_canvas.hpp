#pragma once
// The drawing area of a token view (head view, text view): it hands painting, resizing and the
// pointer to its view through the hooks given. It takes the focus on a click (Esc then reaches
// the view to release a pin). GUI thread only.

#include <QPointF>
#include <QRectF>
#include <QWidget>
#include <functional>

class QPainter;

namespace mhaviz::ui {

class TokenCanvas : public QWidget {
 public:
  struct Hooks {
    std::function<void(QPainter&, const QRectF& exposed)> paint;
    std::function<void()> resized;
    std::function<void(QPointF)> moved;    // the pointer moved over it
    std::function<void(QPointF)> clicked;  // left button pressed
    std::function<void()> left;            // the pointer left it
  };

  TokenCanvas(const QString& objectName, Hooks hooks, QWidget* parent = nullptr);

 protected:
  void paintEvent(QPaintEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void leaveEvent(QEvent* event) override;

 private:
  Hooks m_hooks;
};

}  // namespace mhaviz::ui
