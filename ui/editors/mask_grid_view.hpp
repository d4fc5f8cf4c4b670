#pragma once
// A small L x S cell grid that paints one block of an attn_mask (bool: masked / not; float: the
// added value, -inf drawn as masked) and, when editable, lets the user click or drag over cells.
// A stroke (press, drag, release) is reported once on release, so one stroke is one undoable
// change. Row i is query i (top), column j is key j. GUI thread only.

#include <QPoint>
#include <QVector>
#include <QWidget>
#include <vector>

namespace mhaviz::ui {

class MaskGridView : public QWidget {
  Q_OBJECT

 public:
  explicit MaskGridView(QWidget* parent = nullptr);

  /// Shows `rows` x `cols` values (row-major). `boolean`: non-zero = masked.
  void setValues(int rows, int cols, std::vector<double> values, bool boolean);
  /// Shows a text instead of cells (e.g. "no attn_mask").
  void setMessage(const QString& message);
  void setEditable(bool editable);
  [[nodiscard]] bool isEditable() const { return m_editable; }
  /// The message shown instead of a grid (empty while a grid is shown).
  [[nodiscard]] QString message() const { return m_message; }
  [[nodiscard]] int rows() const { return m_rows; }
  [[nodiscard]] int cols() const { return m_cols; }
  /// The shown value of cell (i, j); NaN outside the grid.
  [[nodiscard]] double valueAt(int i, int j) const;
  /// Widget coordinates of the centre of cell (i, j) (for tests and tooltips).
  [[nodiscard]] QPoint cellCenter(int i, int j) const;

  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;

 signals:
  /// The cells the user pressed or dragged over, in order, each once (x = key j, y = query i).
  void stroke(const QVector<QPoint>& cells);
  /// The user pressed on cell (i, j).
  void cellPressed(int i, int j);

 protected:
  void paintEvent(QPaintEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;

 private:
  [[nodiscard]] QRectF gridRect() const;
  [[nodiscard]] bool cellAt(const QPointF& pos, QPoint* cell) const;
  [[nodiscard]] QColor colorFor(double value) const;

  int m_rows = 0;
  int m_cols = 0;
  std::vector<double> m_values;
  bool m_boolean = true;
  bool m_editable = false;
  QString m_message;
  QVector<QPoint> m_stroke;  // cells of the stroke in progress (drawn outlined)
  double m_maxAbs = 1.0;     // largest finite |value| (float colour scale)
};

}  // namespace mhaviz::ui
