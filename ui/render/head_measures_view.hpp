#pragma once
// The head measures of one batch element as bars, one bar per head for each measure (mean
// normalised entropy, confidence, sink shares, ablation): what a head does at a glance, beside
// the grid. Reads the result's measures, which the window's document holds beside the result and
// which arrive after the result itself; computes nothing. GUI thread.

#include <QRect>
#include <QString>
#include <QWidget>
#include <memory>
#include <vector>

#include "mhaviz/core/analysis/measures.hpp"
#include "mhaviz/core/forward/result.hpp"

namespace mhaviz::ui {

class HeadMeasuresView : public QWidget {
  Q_OBJECT

 public:
  explicit HeadMeasuresView(QWidget* parent = nullptr);

  /// Shows the head averages of batch element `batch` of `result` (nothing when null) from
  /// `measures`, the result's measures (null: none). `measuring`: they are still being
  /// computed (the view says so).
  void setResult(std::shared_ptr<const mhaviz::ForwardResult> result,
                 std::shared_ptr<const mhaviz::ResultMeasures> measures, int batch,
                 bool measuring = false);

  /// Shows a stored result (a weights-only model's layer) and its measures (null: still being
  /// computed) instead of the session's until called with a null result; setResult meanwhile
  /// keeps the session's for then.
  void showStored(std::shared_ptr<const mhaviz::ForwardResult> result,
                  std::shared_ptr<const mhaviz::ResultMeasures> measures, int batch);

  /// One section per measure: its title and one value per head (NaN: undefined).
  struct Section {
    QString title;
    std::vector<double> values;
    bool unitRange = true;  // values in 0..1 (else scaled to the largest)
  };
  [[nodiscard]] const std::vector<Section>& sections() const { return m_sections; }
  /// What the view says instead of bars (no result, or no measures), else empty.
  [[nodiscard]] const QString& message() const { return m_message; }

  /// One text the view draws: the heading, a section's title (wrapped, never cut), a bar's
  /// value, a head's index (every k-th where the bars are too narrow for all), the footer, or
  /// the message; `flags` as for QPainter::drawText.
  struct TextBox {
    QString text;
    QRect rect;
    int flags = 0;
    bool bold = false;
    bool dim = false;  // the head indices and the footer
  };
  /// Where the view puts its texts and bars when it is `width` wide.
  struct Layout {
    std::vector<TextBox> texts;
    std::vector<std::pair<QRect, int>> bars;  // each bar and its section (for the colour)
    std::vector<int> baselines;               // each section's baseline, its y
    int height = 0;                           // everything, margins included
    int firstSection = 0;  // the bottom of the first section (what the dock always shows)
  };
  [[nodiscard]] Layout layoutAt(int width) const;

  [[nodiscard]] QSize sizeHint() const override;
  [[nodiscard]] QSize minimumSizeHint() const override;
  [[nodiscard]] bool hasHeightForWidth() const override { return true; }
  [[nodiscard]] int heightForWidth(int width) const override { return layoutAt(width).height; }
  /// The narrowest the view is laid out for (its bars and head indices readable).
  static constexpr int kMinimumWidth = 200;

 signals:
  /// What the view shows changed (its height for a width with it): a scroll area around it
  /// asks its own minimum again.
  void contentChanged();

 protected:
  void paintEvent(QPaintEvent* event) override;
  void changeEvent(QEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;

 private:
  void rebuild();

  struct Shown {
    std::shared_ptr<const mhaviz::ForwardResult> result;
    std::shared_ptr<const mhaviz::ResultMeasures> measures;
    int batch = 0;
    bool measuring = false;
  };
  Shown m_session;             // the last setResult
  bool m_storedShown = false;  // showStored's result is shown instead
  std::shared_ptr<const mhaviz::ForwardResult> m_result;
  std::shared_ptr<const mhaviz::ResultMeasures> m_resultMeasures;
  int m_batch = 0;
  bool m_measuring = false;
  std::vector<Section> m_sections;
  QString m_heading;
  QString m_message;
  /// layoutAt's last few results, by width: a layout pass asks for the same widths many times
  /// (size hints, height for width, paint), and each asked anew wrapped every title again.
  /// Emptied when the content or the font changes.
  mutable std::vector<std::pair<int, Layout>> m_layouts;
  [[nodiscard]] Layout computeLayout(int width) const;
};

}  // namespace mhaviz::ui
