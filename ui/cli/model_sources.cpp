// mhaviz-cli model: where the model comes from and one layer's views (model_sources.hpp).

#include "cli/model_sources.hpp"

#include <QFileInfo>
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "cli/int_option.hpp"
#include "cli/problem_options.hpp"
#include "cli/usage_error.hpp"
#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/forward/forward.hpp"
#include "mhaviz/core/io/file_bytes.hpp"
#include "mhaviz/core/model/weights_only.hpp"
#include "render/image_export.hpp"
#include "stages/view_options.hpp"
#include "tokens/head_view_picture.hpp"
#include "tokens/text_view_picture.hpp"

namespace mhaviz::cli {

namespace {

/// One token per line (a last empty line is not a token; "\r\n" endings are read too).
std::vector<std::string> readTokens(const QCommandLineParser& parser, const QString& option) {
  if (!parser.isSet(option)) return {};
  const std::string path = parser.value(option).toStdString();
  std::vector<std::byte> bytes;
  try {
    bytes = io::read_file_bytes(path);
  } catch (const InvalidInput& e) {
    throw InvalidInput("--" + option.toStdString() + ": " + e.what());
  }
  std::vector<std::string> out;
  std::string line;
  for (const std::byte b : bytes) {
    const char c = static_cast<char>(b);
    if (c == '\n') {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      out.push_back(line);
      line.clear();
    } else {
      line += c;
    }
  }
  if (!line.empty()) out.push_back(line);
  if (out.empty()) {
    throw InvalidInput("--" + option.toStdString() + " " + path +
                       " holds no tokens; write one token per line");
  }
  return out;
}

}  // namespace

void addModelSourceOptions(QCommandLineParser& parser) {
  parser.addOptions({
      {QStringLiteral("weights"),
       QStringLiteral("Attention weights without a model (docs/capture-and-models.md): one "
                      "array per layer, (batch, heads, L, S) or (heads, L, S), or one stacked "
                      "array; members named encoder_attentions.i, decoder_attentions.i, "
                      "cross_attentions.i form those groups. Instead of --model."),
       QStringLiteral("W.npz")},
      {QStringLiteral("tokens"),
       QStringLiteral("With --weights: the tokens, one per line (the encoder's in an "
                      "encoder-decoder)."),
       QStringLiteral("T.txt")},
      {QStringLiteral("target-tokens"),
       QStringLiteral("With --weights: the decoder's tokens, one per line, labelling decoder "
                      "and cross-attention layers."),
       QStringLiteral("T.txt")},
      {QStringLiteral("kv-heads"),
       QStringLiteral("With --weights: num_key_value_heads (grouped-query attention): the "
                      "query heads sharing a key/value head are grouped."),
       QStringLiteral("k")},
      {QStringLiteral("caption"),
       QStringLiteral("With --weights: one line saying what to look for."),
       QStringLiteral("text")},
      {QStringLiteral("compare-with"),
       QStringLiteral("Compare the weights with those of model A (a model file, or plain "
                      "weights read with the same --tokens options): the largest and mean "
                      "|B - A| per layer and head."),
       QStringLiteral("A.json|A.npz")},
      {QStringLiteral("view"),
       QStringLiteral("grid (a layer's heads' heatmaps), head (its head view) or text (its text "
                      "view), drawn to --image (.png, .svg or .pdf) with --layer; or image: a "
                      "vision transformer's attention over its image (a model file with an "
                      "image, capture_model(image=...)) to --image and its numbers to --out."),
       QStringLiteral("grid|head|text|image")},
      {QStringLiteral("layer"),
       QStringLiteral("With --view: the layer drawn (its position, from 0; --view image: "
                      "default the first one over the image)."),
       QStringLiteral("l")},
      {QStringLiteral("query"),
       QStringLiteral("With --view head: draw only this query's lines; with --view text: the "
                      "query whose weights shade the keys (default: the last); with --view "
                      "image: the query token, by index or label (default 0, the class token)."),
       QStringLiteral("i")},
      {QStringLiteral("head"),
       QStringLiteral("With --view text: shade by this head (default: the heads' average); "
                      "with --view grid: show this head alone; with --view image: the head "
                      "shown large, or mean (default 0; --rollout or --flow show those "
                      "instead)."),
       QStringLiteral("h")},
      {QStringLiteral("coverage"),
       QStringLiteral("With --view head: per query and head only the strongest lines carrying "
                      "this share of its weight, in (0, 1] (default 1)."),
       QStringLiteral("share")},
  });
}

namespace {

model::WeightsFileOptions weightsOptions(const QCommandLineParser& parser) {
  model::WeightsFileOptions options;
  options.tokens = readTokens(parser, QStringLiteral("tokens"));
  options.target_tokens = readTokens(parser, QStringLiteral("target-tokens"));
  options.kv_heads = intOption(parser, QStringLiteral("kv-heads"), 0, 1);
  options.caption = parser.value(QStringLiteral("caption")).toStdString();
  return options;
}

std::string number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", v);
  return text;
}

}  // namespace

model::Model loadModelSource(const QCommandLineParser& parser) {
  const bool fromModel = parser.isSet(QStringLiteral("model"));
  const bool fromWeights = parser.isSet(QStringLiteral("weights"));
  if (fromModel == fromWeights) {
    throw UsageError(
        "model needs --model M.json (a model file) or --weights W.npz (attention weights), one "
        "of them");
  }
  model::Model m;
  if (fromModel) {
    for (const char* option : {"tokens", "target-tokens", "kv-heads", "caption"}) {
      if (parser.isSet(QString::fromLatin1(option))) {
        throw UsageError("--" + std::string(option) +
                         " belongs to --weights; a model file carries its own tokens and "
                         "structure");
      }
    }
    const QString path = parser.value(QStringLiteral("model"));
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("npz") || suffix == QLatin1String("safetensors")) {
      throw UsageError(
          "--model takes a model index (.json, written by capture_model or "
          "save_attentions), not " +
          path.toStdString() + ": for attention weights in an ." + suffix.toStdString() +
          " give --weights " + path.toStdString());
    }
    m = model::read_model(path.toStdString(), memoryLimit(parser));
  } else {
    m = model::read_weights_file(parser.value(QStringLiteral("weights")).toStdString(),
                                 weightsOptions(parser), memoryLimit(parser));
  }
  for (const std::string& w : m.warnings) std::cerr << "warning: " << w << '\n';
  return m;
}

void printComparison(const QCommandLineParser& parser, const model::Model& m,
                     const model::ComputedModel& computed, int batch) {
  const QString path = parser.value(QStringLiteral("compare-with"));
  const std::string what = "--compare-with " + path.toStdString();
  const model::Model a =
      model::read_any_model(path.toStdString(), weightsOptions(parser), memoryLimit(parser));
  for (const std::string& w : a.warnings) std::cerr << "warning: " << w << '\n';
  const model::ComputedModel ca = model::compute_model(a);
  const model::WeightsDifference d =
      model::weights_difference(a, ca.weights, m, computed.weights, batch, what);
  std::cout << "compare: B - A of the weights, batch element " << batch
            << "; per layer, each head's largest |B - A| (and its mean)\n";
  for (const std::string& note : model::comparison_notes(a, m)) std::cout << "note: " << note << '\n';
  for (std::size_t l = 0; l < d.largest.size(); ++l) {
    std::cout << model::layer_title(m.layers[l].info, l) << ':';
    for (std::size_t h = 0; h < d.largest[l].size(); ++h)
      std::cout << ' ' << number(d.largest[l][h]) << " (" << number(d.mean[l][h]) << ')';
    std::cout << '\n';
  }
  std::cout << "largest difference " << number(d.worst) << " at "
            << model::layer_title(m.layers[d.worst_layer].info, d.worst_layer) << ", head "
            << d.worst_head << '\n';
}

void exportModelLayer(const QCommandLineParser& parser, const model::Model& m, int batch,
                      QSize size, const QString& image) {
  const QString viewName = parser.value(QStringLiteral("view"));
  const int layerIndex = intOption(parser, QStringLiteral("layer"), -1, 0);
  if (layerIndex < 0) throw UsageError("--view draws one layer: give --layer l");
  if (std::size_t(layerIndex) >= m.layers.size()) {
    throw InvalidInput("--layer " + std::to_string(layerIndex) + ": the model has " +
                       std::to_string(m.layers.size()) + " layers (0 to " +
                       std::to_string(m.layers.size() - 1) + ")");
  }
  const model::Layer& layer = m.layers[std::size_t(layerIndex)];
  const ForwardResult result =
      m.index.weights_only
          ? model::weights_result(layer)
          : forward(layer.problem.config, layer.problem.params, layer.problem.inputs);
  if (batch >= result.N) {
    throw InvalidInput("--batch " + std::to_string(batch) + ": the layer has " +
                       std::to_string(result.N) + " batch element(s)");
  }
  const int query = intOption(parser, QStringLiteral("query"), -1, 0);
  if (query >= result.L) {
    throw InvalidInput("--query " + std::to_string(query) + " must be a query index from 0 to " +
                       std::to_string(result.L - 1));
  }
  const int head = intOption(parser, QStringLiteral("head"), -1, 0);
  if (head >= result.H) {
    throw InvalidInput("--head " + std::to_string(head) + " must be a head index from 0 to " +
                       std::to_string(result.H - 1));
  }
  ui::ViewOptions view;
  view.batch = batch;
  view.stage = ui::Stage::weights;
  view = ui::fitView(view, ui::viewBounds(result));
  ui::ExportOptions options;
  options.width = size.width();
  options.height = size.height();
  options.title = QString::fromStdString(model::layer_title(layer.info, std::size_t(layerIndex)));
  QString error;
  double coverage = 1.0;
  if (parser.isSet(QStringLiteral("coverage"))) {
    bool ok = false;
    coverage = parser.value(QStringLiteral("coverage")).toDouble(&ok);
    if (!ok || !(coverage > 0.0) || coverage > 1.0) {
      throw InvalidInput("--coverage \"" + parser.value(QStringLiteral("coverage")).toStdString() +
                         "\" must be a share above 0 and at most 1 (e.g. 0.9)");
    }
  }
  // A layer over the model's image: its patch tokens drawn with their patches.
  std::optional<model::PatchPictures> pictures;
  const std::vector<std::size_t> overImage = model::image_layers(m.index);
  if (m.index.image &&
      std::find(overImage.begin(), overImage.end(), std::size_t(layerIndex)) != overImage.end()) {
    pictures = model::patch_pictures(*m.index.image, m.image);
  }
  const model::PatchPictures* shownPictures = pictures ? &*pictures : nullptr;
  if (viewName == QLatin1String("head")) {
    ui::HeadViewChoice choice;
    choice.query = query;
    choice.coverage = coverage;
    error = ui::exportHeadView(result, view, choice, options, image, nullptr, shownPictures);
  } else if (viewName == QLatin1String("text")) {
    ui::TextViewChoice choice;
    choice.head = head;
    choice.query = query;
    error = ui::exportTextView(result, view, choice, options, image, nullptr, shownPictures);
  } else {
    view.soloHead = head;
    error = ui::exportImage(result, view, options, image);
  }
  if (!error.isEmpty()) throw InvalidInput(error.toStdString());
}

}  // namespace mhaviz::cli
