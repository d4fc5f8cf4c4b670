#pragma once
// mhaviz-cli model: where the model comes from (a model file, --model, or plain attention
// weights, --weights with --tokens), and one layer drawn as the heatmap grid, the head view or
// the text view (--layer with --view), for captured and weights-only models alike.

#include <QCommandLineParser>
#include <QSize>
#include <QString>

#include "mhaviz/core/model/model.hpp"

namespace mhaviz::cli {

/// The options of this file, added to the model command's.
void addModelSourceOptions(QCommandLineParser& parser);

/// Reads --model M.json, or --weights W.npz|.safetensors with --tokens / --target-tokens /
/// --kv-heads / --caption (mhaviz/core/model/weights_only.hpp); prints the model's warnings to
/// stderr ("warning: ..."). Throws UsageError for neither or both, InvalidInput for a bad file.
model::Model loadModelSource(const QCommandLineParser& parser);

/// --compare-with A.json|W.npz: reads model A (a model file, or plain weights with the same
/// --tokens options), computes it, and prints how the weights of `m` (B) differ from A's, layer
/// by layer and head by head, for batch element `batch`. Throws InvalidInput when they do not
/// have the same layers and shapes.
void printComparison(const QCommandLineParser& parser, const model::Model& m,
                     const model::ComputedModel& computed, int batch);

/// --layer l --view grid|head|text --image OUT.png|.svg|.pdf: one layer of `m` (batch element
/// `batch`) drawn by the window's export (a weights-only layer from its stored weights, a
/// captured one recomputed). Throws UsageError / InvalidInput.
void exportModelLayer(const QCommandLineParser& parser, const model::Model& m, int batch,
                      QSize size, const QString& image);

}  // namespace mhaviz::cli
