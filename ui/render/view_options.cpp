#include "ui/render/view_options.hpp"

namespace mhaviz::ui {

QString stageName(Stage stage) {
  switch (stage) {
    case Stage::weights:
      return QStringLiteral("weights");
    case Stage::weights_before_dropout:
      return QStringLiteral("weights before dropout");
    case Stage::raw_scores:
      return QStringLiteral("raw scores");
    case Stage::mask:
      return QStringLiteral("mask");
    case Stage::scores:
      return QStringLiteral("scores");
    case Stage::q:
      return QStringLiteral("q");
    case Stage::k:
      return QStringLiteral("k");
    case Stage::v:
      return QStringLiteral("v");
    case Stage::head_output:
      return QStringLiteral("head output");
    case Stage::merged:
      return QStringLiteral("merged");
    case Stage::output:
      return QStringLiteral("output");
  }
  return {};
}

bool stageIsSigned(Stage stage) {
  return stage != Stage::weights && stage != Stage::weights_before_dropout;
}

}  // namespace mhaviz::ui
