#pragma once
// The heatmap grid's legend: a key for the special cells (masked, NaN) and one for each key column
// appended by add_bias_kv / add_zero_attn, saying what it carries in the stage shown, in rows
// that wrap to the plot's width (nothing clipped on a narrow screen). GUI thread.

#include <qcustomplot.h>

#include <QColor>
#include <QString>
#include <vector>

#include "stages/stage_data.hpp"
#include "stages/view_options.hpp"

namespace mhaviz::ui {

/// A legend entry for the layout: a colour swatch (or a dashed line) and a text.
class LegendKey : public QCPLayoutElement {
 public:
  enum class Swatch { fill, line };
  LegendKey(QCustomPlot* plot, const QColor& color, Swatch swatch, const QString& text,
            const QColor& textColor);
  void setText(const QString& text) { m_text = text; }
  [[nodiscard]] const QString& text() const { return m_text; }
  QSize minimumOuterSizeHint() const override;
  QSize maximumOuterSizeHint() const override;

 protected:
  void draw(QCPPainter* painter) override;

 private:
  QColor m_color;
  Swatch m_swatch;
  QString m_text;
  QColor m_textColor;
};

/// The colours of the legend's texts and swatches.
struct LegendColours {
  QColor text;
  QColor masked;
  QColor nan;
};

/// True when one of `infos` is of `kind` (an appended bias_k or zero key, a source key).
bool hasKind(const std::vector<ColumnInfo>& infos, KeyKind kind);

/// The NaN key's text: why NaN appears when a map of `data` has NaN, else "NaN".
QString nanKeyText(const StageData& data);

/// Fills `legend` (in `plot`) with the keys that `data`, shown as `stage`, needs. Returns the NaN
/// key: its text follows the statistics (nanKeyText), which may arrive later.
LegendKey* buildLegend(QCustomPlot* plot, QCPLayoutGrid* legend, const StageData& data, Stage stage,
                       const LegendColours& colours);

}  // namespace mhaviz::ui
