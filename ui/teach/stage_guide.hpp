#pragma once
// The walk-through: the stages of F.multi_head_attention_forward in PyTorch's order, each with a
// one-paragraph explanation and the PyTorch source line it mirrors. Pure data (no widgets).

#include <QList>
#include <QString>

#include "stages/view_options.hpp"

namespace mhaviz {
struct ForwardResult;
}

namespace mhaviz::ui {

struct GuideStep {
  Stage stage = Stage::weights;
  QString title;        // "Raw scores"
  QString explanation;  // one paragraph (translated)
  QString code;         // the PyTorch line(s) it corresponds to (not translated)
};

/// Every step in PyTorch's order: parameters, q, k, v, raw scores, mask, scores, weights before
/// dropout, weights, head outputs, merged, output; then the value norms (an analysis).
QList<GuideStep> guideSteps();

/// The step shown for `stage` (its explanation and code line); with a result, the k and v
/// titles name only the appended rows (bias_k, the zero key) it has.
GuideStep guideStep(Stage stage, const mhaviz::ForwardResult* result = nullptr);

/// The stages the walk-through visits for `result` (null: all): weights_before_dropout only when
/// dropout was applied.
QList<Stage> walkStages(const mhaviz::ForwardResult* result);

/// The stage after (delta = +1) or before (-1) `current` in walkStages(result), clamped at the
/// ends (a lecture does not wrap around).
Stage stepFrom(Stage current, int delta, const mhaviz::ForwardResult* result);

}  // namespace mhaviz::ui
