#pragma once
// A layout that places its items left to right and wraps onto further rows where the width
// ends (Qt's flow layout example): the head view's head chips, whose number (8, 32, 64 heads)
// must not set the dock's smallest width. Its height follows its width (heightForWidth).

#include <QLayout>
#include <QList>

namespace mhaviz::ui {

class FlowLayout : public QLayout {
 public:
  explicit FlowLayout(int spacing = 2);
  ~FlowLayout() override;

  void addItem(QLayoutItem* item) override;
  /// A gap of `width` pixels before the next item (none at the start of a row).
  void addGap(int width);
  [[nodiscard]] int count() const override { return static_cast<int>(m_items.size()); }
  [[nodiscard]] QLayoutItem* itemAt(int index) const override;
  QLayoutItem* takeAt(int index) override;
  [[nodiscard]] Qt::Orientations expandingDirections() const override { return {}; }
  [[nodiscard]] bool hasHeightForWidth() const override { return true; }
  [[nodiscard]] int heightForWidth(int width) const override;
  [[nodiscard]] QSize minimumSize() const override;
  /// Every item on one row (the width it would take), as tall as one row.
  [[nodiscard]] QSize sizeHint() const override;
  void setGeometry(const QRect& rect) override;

 private:
  /// Lays the items out in `rect` (only measures when `place` is false); returns the height.
  int arrange(const QRect& rect, bool place) const;

  QList<QLayoutItem*> m_items;
};

}  // namespace mhaviz::ui
