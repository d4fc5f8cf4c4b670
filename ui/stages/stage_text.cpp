// What maps and values are called: column labels, map titles, units, stage names (English for
// data, translated for display).
#include <QCoreApplication>
#include <utility>

#include "stages/stage_data.hpp"
#include "stages/stage_parts.hpp"

namespace mhaviz::ui {

namespace {

// A key column's label: "bias_k", "zero", the token label when given, else its index.
QString keyLabel(const mhaviz::KeyColumn& column, const QStringList& labels) {
  switch (column.kind) {
    case mhaviz::KeyKind::bias_k:
      return QStringLiteral("bias_k");
    case mhaviz::KeyKind::zero:
      return QStringLiteral("zero");
    case mhaviz::KeyKind::source:
      break;
  }
  const auto index = static_cast<qsizetype>(column.index);
  if (index >= 0 && index < labels.size() && !labels[index].isEmpty()) return labels[index];
  return QString::number(column.index);
}

}  // namespace

std::vector<ColumnInfo> keyColumns(const mhaviz::ForwardResult& result, const QStringList& labels) {
  std::vector<ColumnInfo> columns;
  columns.reserve(toSize(result.Sx));
  for (std::int64_t j = 0; j < result.Sx; ++j) {
    mhaviz::KeyColumn column{mhaviz::KeyKind::source, j};
    if (static_cast<std::size_t>(j) < result.columns.size()) {
      column = result.columns[static_cast<std::size_t>(j)];
    }
    columns.push_back({keyLabel(column, labels), column.kind});
  }
  return columns;
}

std::vector<ColumnInfo> indexColumns(std::int64_t n) {
  std::vector<ColumnInfo> columns;
  columns.reserve(toSize(n));
  for (std::int64_t j = 0; j < n; ++j) columns.push_back({QString::number(j), KeyKind::source});
  return columns;
}

// What a value of the stage is, for the colour scale and hover text.
void setStageUnit(StageData& data, Stage stage) {
  switch (stage) {
    case Stage::weights:
    case Stage::weights_before_dropout:
      setUnit(data, QT_TRANSLATE_NOOP("mhaviz::ui::StageText", "weight"));
      return;
    case Stage::raw_scores:
      setUnit(data, QT_TRANSLATE_NOOP("mhaviz::ui::StageText", "raw score"));
      return;
    case Stage::capped_scores:
      setUnit(data, QT_TRANSLATE_NOOP("mhaviz::ui::StageText", "capped score"));
      return;
    case Stage::mask:
      setUnit(data, QT_TRANSLATE_NOOP("mhaviz::ui::StageText", "mask term"));
      return;
    case Stage::scores:
      setUnit(data, QT_TRANSLATE_NOOP("mhaviz::ui::StageText", "score"));
      return;
    case Stage::value_norms:
      setUnit(data, QT_TRANSLATE_NOOP("mhaviz::ui::StageText", "value-weighted norm ‖α·f(x)‖"));
      return;
    case Stage::value_zeroing:
      setUnit(data, QT_TRANSLATE_NOOP("mhaviz::ui::StageText",
                                      "change of the output row when v_j is zeroed"));
      return;
    case Stage::sink_scores:
      setUnit(data, QT_TRANSLATE_NOOP("mhaviz::ui::StageText",
                                      "sink score: mean weight over the queries"));
      return;
    default:
      data.unit = stageName(stage);
      data.shownUnit = shownStageName(stage);
      return;
  }
}

void setMapTitle(MapData& map, const char* source, const QStringList& args) {
  QString english = QString::fromUtf8(source);
  QString shown = QCoreApplication::translate(kStageTextContext, source);
  for (const QString& arg : args) {
    english = english.arg(arg);
    shown = shown.arg(arg);
  }
  map.title = std::move(english);
  map.shownTitle = std::move(shown);
}

void setUnit(StageData& data, const char* source) {
  data.unit = QString::fromUtf8(source);
  data.shownUnit = QCoreApplication::translate(kStageTextContext, source);
}

QString shownStageName(Stage stage) {
  return QCoreApplication::translate("mhaviz::ui::Stage", stageName(stage).toLatin1().constData());
}

}  // namespace mhaviz::ui
