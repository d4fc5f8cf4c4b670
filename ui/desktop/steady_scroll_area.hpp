#pragma once
// A scroll area of fields that stays where the user put it: when its content is laid out again
// (a row shown or hidden above, a note appearing, a list refilled), the field the user works in
// keeps its place on screen, so the next click lands on the field that was under the pointer.
// That field is the one with focus inside the area, else the one the pointer is over. Tab still
// brings a field out of view into view, by as little as it takes. GUI thread only.

#include <QPoint>
#include <QPointer>
#include <QScrollArea>

namespace mhaviz::ui {

class SteadyScrollArea : public QScrollArea {
  Q_OBJECT

 public:
  explicit SteadyScrollArea(QWidget* parent = nullptr);

  /// Sets the content (as QScrollArea::setWidget, resizable) and watches every widget in it.
  void setContent(QWidget* content);
  /// The field kept in place (null: none), for tests.
  [[nodiscard]] QWidget* anchor() const { return m_anchor; }

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;
  bool focusNextPrevChild(bool next) override;

 private:
  void watch(QWidget* widget);
  void setAnchor(QWidget* widget);
  /// The anchor's top in the viewport (INT_MIN when there is none to keep).
  [[nodiscard]] int anchorTop() const;
  /// Scrolls so that the anchor is back at m_anchorTop.
  void keepAnchor();

  QPointer<QWidget> m_anchor;
  int m_anchorTop = 0;
  QPoint m_pointer;        // where the pointer was when it last chose the anchor (global)
  bool m_keeping = false;  // keepAnchor's own scrolling is not the user's
};

}  // namespace mhaviz::ui
