#include "stages/view_options.hpp"

#include <QCoreApplication>  // QT_TRANSLATE_NOOP: stage names are translated for display
#include <algorithm>
#include <string>
#include <vector>

#include "mhaviz/core/forward/result.hpp"

namespace mhaviz::ui {

QString stageName(Stage stage) {
  switch (stage) {
    case Stage::weights:
      return QString::fromLatin1(QT_TRANSLATE_NOOP("mhaviz::ui::Stage", "weights"));
    case Stage::weights_before_dropout:
      return QString::fromLatin1(QT_TRANSLATE_NOOP("mhaviz::ui::Stage", "weights before dropout"));
    case Stage::raw_scores:
      return QString::fromLatin1(QT_TRANSLATE_NOOP("mhaviz::ui::Stage", "raw scores"));
    case Stage::capped_scores:
      return QString::fromLatin1(QT_TRANSLATE_NOOP("mhaviz::ui::Stage", "soft-capped scores"));
    case Stage::mask:
      return QString::fromLatin1(QT_TRANSLATE_NOOP("mhaviz::ui::Stage", "mask"));
    case Stage::scores:
      return QString::fromLatin1(QT_TRANSLATE_NOOP("mhaviz::ui::Stage", "scores"));
    case Stage::q:
      return QString::fromLatin1(QT_TRANSLATE_NOOP("mhaviz::ui::Stage", "q"));
    case Stage::k:
      return QString::fromLatin1(QT_TRANSLATE_NOOP("mhaviz::ui::Stage", "k"));
    case Stage::v:
      return QString::fromLatin1(QT_TRANSLATE_NOOP("mhaviz::ui::Stage", "v"));
    case Stage::head_output:
      return QString::fromLatin1(QT_TRANSLATE_NOOP("mhaviz::ui::Stage", "head output"));
    case Stage::merged:
      return QString::fromLatin1(QT_TRANSLATE_NOOP("mhaviz::ui::Stage", "merged"));
    case Stage::output:
      return QString::fromLatin1(QT_TRANSLATE_NOOP("mhaviz::ui::Stage", "output"));
    case Stage::in_proj_weight:
      return QString::fromLatin1(QT_TRANSLATE_NOOP("mhaviz::ui::Stage", "in_proj_weight"));
    case Stage::out_proj_weight:
      return QString::fromLatin1(QT_TRANSLATE_NOOP("mhaviz::ui::Stage", "out_proj.weight"));
    case Stage::value_norms:
      return QString::fromLatin1(QT_TRANSLATE_NOOP("mhaviz::ui::Stage", "value norms"));
    case Stage::value_zeroing:
      return QString::fromLatin1(QT_TRANSLATE_NOOP("mhaviz::ui::Stage", "value zeroing"));
    case Stage::sink_scores:
      return QString::fromLatin1(QT_TRANSLATE_NOOP("mhaviz::ui::Stage", "sink scores"));
  }
  return {};
}

bool stageIsSigned(Stage stage) {
  return stage != Stage::weights && stage != Stage::weights_before_dropout &&
         stage != Stage::value_norms && stage != Stage::value_zeroing &&
         stage != Stage::sink_scores;
}

bool stageNeedsMeasures(Stage stage) {
  return stage == Stage::value_norms || stage == Stage::value_zeroing ||
         stage == Stage::sink_scores;
}

QList<Stage> allStages() {
  return {Stage::in_proj_weight,
          Stage::q,
          Stage::k,
          Stage::v,
          Stage::raw_scores,
          Stage::capped_scores,
          Stage::mask,
          Stage::scores,
          Stage::weights_before_dropout,
          Stage::weights,
          Stage::head_output,
          Stage::merged,
          Stage::out_proj_weight,
          Stage::output,
          Stage::value_norms,
          Stage::value_zeroing,
          Stage::sink_scores};
}

namespace {

QStringList labelList(const std::vector<std::string>& names) {
  QStringList list;
  for (const std::string& name : names) list << QString::fromStdString(name);
  return list;
}

}  // namespace

ViewBounds viewBounds(const mhaviz::Config& config) {
  ViewBounds bounds;
  bounds.sized = true;
  bounds.batches = config.batch();
  bounds.heads = config.num_heads;
  bounds.queryLabels = labelList(config.query_labels);
  bounds.keyLabels = labelList(config.key_labels);
  return bounds;
}

ViewBounds viewBounds(const mhaviz::ForwardResult& result) {
  ViewBounds bounds = viewBounds(result.config);
  bounds.batches = result.N;
  bounds.heads = result.H;
  bounds.beforeDropout = stageIn(Stage::weights_before_dropout, result);
  bounds.cappedScores = stageIn(Stage::capped_scores, result);
  return bounds;
}

ViewOptions fitView(ViewOptions view, const ViewBounds& bounds) {
  if (bounds.sized) {
    view.batch =
        std::clamp(view.batch, 0, static_cast<int>(std::max<std::int64_t>(bounds.batches, 1)) - 1);
    if (view.soloHead >= bounds.heads) view.soloHead = -1;
    view.queryLabels = bounds.queryLabels;
    view.keyLabels = bounds.keyLabels;
  }
  if (view.stage == Stage::weights_before_dropout && !bounds.beforeDropout) {
    view.stage = Stage::weights;
  }
  if (view.stage == Stage::capped_scores && !bounds.cappedScores) view.stage = Stage::raw_scores;
  if (bounds.weightsOnly) view.stage = Stage::weights;
  return view;
}

bool stageIn(Stage stage, const mhaviz::ForwardResult& result) {
  if (stage == Stage::weights_before_dropout) return result.weights_before_dropout.has_value();
  if (stage == Stage::capped_scores) return result.has_capped_scores();
  return true;
}

}  // namespace mhaviz::ui
