// Compare mode's maps: A, B and B - A of one stage (compare_stage.hpp).
#include "stages/compare_stage.hpp"

#include <QCoreApplication>
#include <string>
#include <utility>
#include <vector>

#include "mhaviz/core/analysis/compare.hpp"
#include "mhaviz/core/base/errors.hpp"

namespace mhaviz::ui {
namespace {

bool keyColumns(Stage stage) {
  return stage == Stage::weights || stage == Stage::weights_before_dropout ||
         stage == Stage::raw_scores || stage == Stage::mask || stage == Stage::scores;
}

std::vector<mhaviz::KeyColumn> keysOf(const std::vector<ColumnInfo>& infos) {
  std::vector<mhaviz::KeyColumn> keys;
  std::int64_t source = 0;
  for (std::size_t i = 0; i < infos.size(); ++i) {
    const bool isSource = infos[i].kind == mhaviz::KeyKind::source;
    keys.push_back({infos[i].kind, isSource ? source++ : static_cast<std::int64_t>(i)});
  }
  return keys;
}

mhaviz::CompareGrid gridOf(const MapData& map, Stage stage) {
  mhaviz::CompareGrid g;
  g.rows = map.rows;
  g.cols = map.cols;
  g.values = map.values;
  if (keyColumns(stage)) g.col_keys = keysOf(map.columns);
  if (stage == Stage::k || stage == Stage::v) g.row_keys = keysOf(map.rowsInfo);
  return g;
}

/// The axis nouns the core and compareStage use, in the window's language.
QString nounText(const std::string& noun) {
  static constexpr const char* known[] = {
      QT_TRANSLATE_NOOP("mhaviz::ui::StageText", "queries"),
      QT_TRANSLATE_NOOP("mhaviz::ui::StageText", "features"),
      QT_TRANSLATE_NOOP("mhaviz::ui::StageText", "rows"),
      QT_TRANSLATE_NOOP("mhaviz::ui::StageText", "columns"),
      QT_TRANSLATE_NOOP("mhaviz::ui::StageText", "key rows"),
      QT_TRANSLATE_NOOP("mhaviz::ui::StageText", "key columns")};
  for (const char* k : known) {
    if (noun == k) return QCoreApplication::translate("mhaviz::ui::StageText", k);
  }
  return QString::fromStdString(noun);
}

QString keyText(const mhaviz::KeyColumn& k) {
  switch (k.kind) {
    case mhaviz::KeyKind::bias_k:
      return QCoreApplication::translate("mhaviz::ui::StageText", "the bias_k key");
    case mhaviz::KeyKind::zero:
      return QCoreApplication::translate("mhaviz::ui::StageText", "the zero key (add_zero_attn)");
    case mhaviz::KeyKind::source:
      break;
  }
  return QCoreApplication::translate("mhaviz::ui::StageText", "key %1").arg(k.index);
}

std::vector<ColumnInfo> pick(const std::vector<ColumnInfo>& infos,
                             const std::vector<std::int64_t>& indices) {
  if (infos.empty()) return {};
  std::vector<ColumnInfo> out;
  for (const std::int64_t i : indices) out.push_back(infos[static_cast<std::size_t>(i)]);
  return out;
}

QString mismatchText(const mhaviz::Mismatch& m) {
  switch (m.kind) {
    case mhaviz::Mismatch::Kind::none:
      break;
    case mhaviz::Mismatch::Kind::different_axes:
      return QCoreApplication::translate("mhaviz::ui::StageText",
                                         "A and B show different things along the %1")
          .arg(nounText(m.noun));
    case mhaviz::Mismatch::Kind::counts:
      return QCoreApplication::translate("mhaviz::ui::StageText", "A has %1 %2, B has %3")
          .arg(m.a)
          .arg(nounText(m.noun))
          .arg(m.b);
    case mhaviz::Mismatch::Kind::source_keys:
      return QCoreApplication::translate(
                 "mhaviz::ui::StageText",
                 "A has %1 source keys, B has %2 (src_len or static_k differ)")
          .arg(m.a)
          .arg(m.b);
    case mhaviz::Mismatch::Kind::heads:
      return QCoreApplication::translate("mhaviz::ui::StageText",
                                         "A has %1 heads, B has %2 (num_heads differ)")
          .arg(m.a)
          .arg(m.b);
  }
  return {};
}

QString noteText(const mhaviz::KeyNote& note) {
  return note.only_in_a ? QCoreApplication::translate("mhaviz::ui::StageText", "%1 is only in A")
                              .arg(keyText(note.key))
                        : QCoreApplication::translate("mhaviz::ui::StageText", "%1 is only in B")
                              .arg(keyText(note.key));
}

}  // namespace

CompareData compareStage(const mhaviz::ForwardResult& a, const mhaviz::ForwardResult& b,
                         const ViewOptions& view, const mhaviz::ResultMeasures* measuresA,
                         const mhaviz::ResultMeasures* measuresB) {
  CompareData out;
  try {
    out.a = extractStage(a, view, ExtractMode::copy, measuresA);
  } catch (const mhaviz::InvalidInput& e) {
    out.mismatch = QCoreApplication::translate("mhaviz::ui::StageText", "A: %1")
                       .arg(QString::fromStdString(e.what()));
  }
  try {
    out.b = extractStage(b, view, ExtractMode::copy, measuresB);
  } catch (const mhaviz::InvalidInput& e) {
    if (out.mismatch.isEmpty())
      out.mismatch = QCoreApplication::translate("mhaviz::ui::StageText", "B: %1")
                         .arg(QString::fromStdString(e.what()));
  }
  if (!out.mismatch.isEmpty()) return out;

  std::vector<mhaviz::CompareGrid> ga, gb;
  for (const MapData& m : out.a.maps) ga.push_back(gridOf(m, view.stage));
  for (const MapData& m : out.b.maps) gb.push_back(gridOf(m, view.stage));
  mhaviz::Mismatch why;
  const bool params = view.stage == Stage::in_proj_weight || view.stage == Stage::out_proj_weight;
  const auto diffs = mhaviz::maps_difference(ga, gb, &why, params ? "rows" : "queries",
                                             params ? "columns" : "features");
  if (why.any()) {
    // The maps are counted, the average over heads among them: say the heads' own numbers.
    if (why.kind == mhaviz::Mismatch::Kind::heads && a.H != b.H) {
      why.a = a.H;
      why.b = b.H;
    }
    out.mismatch = mismatchText(why);
    return out;
  }
  for (const mhaviz::KeyNote& note : diffs.front().left_out) out.notes << noteText(note);

  out.diff.isSigned = true;
  out.diff.maskKnown = out.a.maskKnown && out.b.maskKnown;
  setUnit(out.diff,
          QT_TRANSLATE_NOOP("mhaviz::ui::StageText", "B \u2212 A (range symmetric about 0)"));
  for (std::size_t i = 0; i < diffs.size(); ++i) {
    const MapData& ma = out.a.maps[i];
    const mhaviz::GridDifference& d = diffs[i];
    MapData m;
    m.title = ma.title + QStringLiteral(", B \u2212 A");
    m.shownTitle = ma.shownTitle + QStringLiteral(", B \u2212 A");
    m.rows = static_cast<int>(d.diff.rows);
    m.cols = static_cast<int>(d.diff.cols);
    m.values = d.diff.values;
    m.columns = pick(ma.columns, d.a_cols);
    m.rowsInfo = pick(ma.rowsInfo, d.a_rows);
    out.diff.maps.push_back(std::move(m));
  }
  computeStats(out.diff);  // signed: lo/hi = -max|v|..max|v|
  out.nanNotes = explainNaN(a, b, view, out, diffs);
  return out;
}

mhaviz::Tensor differenceTensor(const mhaviz::ForwardResult& a, const mhaviz::ForwardResult& b,
                                Stage stage) {
  if (a.N != b.N) {
    throw mhaviz::InvalidInput("A has " + std::to_string(a.N) + " batch elements, B has " +
                               std::to_string(b.N));
  }
  ViewOptions view;
  view.stage = stage;
  view.showAverage = false;
  std::vector<double> values;
  std::int64_t maps = 0, rows = 0, cols = 0;
  for (std::int64_t n = 0; n < a.N; ++n) {
    view.batch = static_cast<int>(n);
    const CompareData d = compareStage(a, b, view);
    if (!d.ok())
      throw mhaviz::InvalidInput(stageName(stage).toStdString() + ": " + d.mismatch.toStdString());
    for (const MapData& m : d.diff.maps) {
      values.insert(values.end(), m.values.begin(), m.values.end());
      rows = m.rows, cols = m.cols;
    }
    maps = static_cast<std::int64_t>(d.diff.maps.size());
  }
  const bool perHead = stage != Stage::merged && stage != Stage::output;
  mhaviz::Shape shape =
      perHead ? mhaviz::Shape{a.N, maps, rows, cols} : mhaviz::Shape{a.N, rows, cols};
  return mhaviz::Tensor::from<double>(std::move(shape), std::move(values));
}

}  // namespace mhaviz::ui
