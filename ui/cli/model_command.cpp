// mhaviz-cli model: a whole model file (docs/capture-and-models.md) recomputed layer by layer,
// checked against PyTorch's stored outputs, and drawn as the layers × heads grid, the rollout or
// the attention flow map; a generation capture's steps listed, drawn and written.

#include <QFileInfo>
#include <QPainter>
#include <cstdio>
#include <functional>
#include <iostream>
#include <string>

#include "cli/commands.hpp"
#include "cli/int_option.hpp"
#include "cli/model_image.hpp"
#include "cli/model_sources.hpp"
#include "cli/model_steps.hpp"
#include "cli/output_path.hpp"
#include "cli/problem_options.hpp"
#include "cli/sink_eps.hpp"
#include "cli/usage_error.hpp"
#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/analysis/measures.hpp"
#include "mhaviz/core/model/model.hpp"
#include "mhaviz/core/spec/torch_path.hpp"
#include "mhaviz/core/model/weights_only.hpp"
#include "model/model_picture.hpp"
#include "model/step_picture.hpp"

namespace mhaviz::cli {

namespace {

std::string difference(double d) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", d);
  return text;
}

std::string share(const SinkRate& r) {
  return difference(r.rate()) + " (" + std::to_string(r.sinks) + " of " + std::to_string(r.heads) +
         ")";
}

// --stats: the sink rate per layer and overall, and each layer's first-token sink scores of
// the batch element shown.
void printSinkRates(const model::Model& m, const model::ComputedModel& computed, double eps,
                    std::int64_t batch) {
  const model::ModelSinkRates rates = model::sink_rates(computed, eps);
  std::cout << "sink rate (Gu et al. 2024): share of heads (each batch element's heads counted "
               "once) whose first-token sink score is above eps "
            << difference(eps) << "; sink scores of batch element " << batch << " per head\n";
  for (std::size_t i = 0; i < m.layers.size(); ++i) {
    const SinkScores& s = computed.sinks[i];
    std::cout << model::layer_title(m.layers[i].info, i) << ": sink rate "
              << share(rates.per_layer[i]) << "; first-token sink score";
    for (std::int64_t h = 0; h < s.H; ++h) std::cout << ' ' << difference(s.at(batch, h, 0));
    std::cout << '\n';
  }
  std::cout << "overall sink rate " << share(rates.overall) << " over " << m.layers.size()
            << " layer" << (m.layers.size() == 1 ? "" : "s") << '\n';
  if (!m.index.weights_only) return;
  // Stored weights: the head measures of docs/measures.md that need only the weights.
  std::cout << "head measures of batch element " << batch
            << " per head (mean over queries): entropy in nats, confidence (largest weight), "
               "sink share (weight on the first key)\n";
  for (std::size_t i = 0; i < m.layers.size(); ++i) {
    const ForwardResult r = model::weights_result(m.layers[i]);
    const HeadMeasures hm = head_measures(r, Inputs{});
    std::string entropy, confidence, first;
    for (std::int64_t h = 0; h < r.H; ++h) {
      const HeadAverage a = head_average(hm, r, batch, h);
      entropy += ' ' + difference(a.entropy);
      confidence += ' ' + difference(a.confidence);
      first += ' ' + difference(a.first_key);
    }
    std::cout << model::layer_title(m.layers[i].info, i) << ": entropy" << entropy
              << "; confidence" << confidence << "; sink share" << first << '\n';
  }
}

// --rollout or --flow without --image: the layers, each input token's mean share and each
// layer's weight on the appended columns (dropped).
template <typename TokenMap>
void printAcrossLayers(const TokenMap& r, std::int64_t batch) {
  for (const std::size_t l : r.layers) std::cout << ' ' << l;
  std::cout << " (batch element " << batch << "); per input token:";
  for (const double v : r.per_token) std::cout << ' ' << difference(v);
  std::cout << "\nweight on appended bias_k/zero columns per layer:";
  for (const double v : r.extra_share) std::cout << ' ' << difference(v);
  std::cout << '\n';
}

}  // namespace

void addModelOptions(QCommandLineParser& parser) {
  parser.addOptions({
      {QStringLiteral("model"),
       QStringLiteral(
           "The model index written by mhaviz_capture.capture_model or save_attentions "
           "(docs/capture-and-models.md)."),
       QStringLiteral("M.json")},
      {QStringLiteral("check"),
       QStringLiteral("Print each layer's largest difference from PyTorch's stored outputs; exit "
                      "1 when one is above the tolerance.")},
      {QStringLiteral("tolerance"),
       QStringLiteral("Largest difference that still agrees (default 1e-4)."), QStringLiteral("x")},
      {QStringLiteral("image"),
       QStringLiteral("Draw the layers x heads grid to this PNG or SVG (with --layer and --view, "
                      "one layer; PDF too)."),
       QStringLiteral("OUT.png|.svg")},
      {QStringLiteral("rollout"),
       QStringLiteral("With --image: draw the attention rollout instead; without it: print it.")},
      {QStringLiteral("flow"),
       QStringLiteral("With --image: draw the attention flow (Abnar & Zuidema 2020) instead; "
                      "without it: print it. Refused above layers x tokens^4 = 5e8.")},
      {QStringLiteral("steps"),
       QStringLiteral("List the generation steps of a capture_generation() file: each step's "
                      "newest position, the token it generates and the key each layer looks at "
                      "most.")},
      {QStringLiteral("step"),
       QStringLiteral("Generation step shown: with --image, draw its layers' weights of the "
                      "newest position; with --out, write them; with --rollout or --flow, use "
                      "its layers (default: the last step)."),
       QStringLiteral("k")},
      {QStringLiteral("out"),
       QStringLiteral("With --step: write the newest position's weights of every layer of the "
                      "step (<layer>/weights, heads x keys) to this .npz or .safetensors."),
       QStringLiteral("F.npz")},
      {QStringLiteral("stats"),
       QStringLiteral("Print the sink rate (Gu et al. 2024) per layer and overall: the share of "
                      "heads whose first-token sink score is above --sink-eps.")},
      {QStringLiteral("sink-eps"),
       QStringLiteral("Sink threshold of --stats, in (0, 1] (default 0.3)."),
       QStringLiteral("eps")},
      {QStringLiteral("batch"), QStringLiteral("Batch element shown (default 0)."),
       QStringLiteral("n")},
      {QStringLiteral("width"), QStringLiteral("Picture width in pixels (default 1600)."),
       QStringLiteral("px")},
      {QStringLiteral("height"), QStringLiteral("Picture height in pixels (default 1000)."),
       QStringLiteral("px")},
      {QStringLiteral("max-memory"),
       QStringLiteral("Refuse a model needing more than this (default 4GiB)."),
       QStringLiteral("size")},
  });
  addModelSourceOptions(parser);
  addModelImageOptions(parser);
}

int modelCommand(const QCommandLineParser& parser) {
  const bool check = parser.isSet(QStringLiteral("check"));
  const bool rollout = parser.isSet(QStringLiteral("rollout"));
  const bool flow = parser.isSet(QStringLiteral("flow"));
  const bool stats = parser.isSet(QStringLiteral("stats"));
  const bool steps = parser.isSet(QStringLiteral("steps"));
  const bool compare = parser.isSet(QStringLiteral("compare-with"));
  const QString image = parser.value(QStringLiteral("image"));
  const QString out = parser.value(QStringLiteral("out"));
  const bool imageView = imageViewAsked(parser);
  const bool layerView = parser.isSet(QStringLiteral("view")) && !imageView;
  if (const QString v = parser.value(QStringLiteral("view"));
      layerView && v != QLatin1String("grid") && v != QLatin1String("head") &&
      v != QLatin1String("text")) {
    throw UsageError(QStringLiteral("--view \"%1\" is not a view of model: use grid, head or "
                                    "text (one layer), or image (a vision transformer's "
                                    "attention over its image)")
                         .arg(v)
                         .toStdString());
  }
  if (!imageView) refuseImageOptionsWithoutView(parser);
  for (const char* option : {"layer", "query", "head"}) {
    if (!parser.isSet(QStringLiteral("view")) && parser.isSet(QString::fromLatin1(option))) {
      throw UsageError("--" + std::string(option) +
                       " belongs to --view; add --view grid|head|text|image");
    }
  }
  if (!layerView && parser.isSet(QStringLiteral("coverage")))
    throw UsageError("--coverage belongs to --view head; add --view head");
  if (imageView && (steps || parser.isSet(QStringLiteral("step")))) {
    throw UsageError(
        "--view image shows one forward pass over an image; --steps and --step "
        "belong to generation captures");
  }
  if (!imageView && !check && !rollout && !flow && !stats && !steps && !compare &&
      image.isEmpty() && out.isEmpty()) {
    throw UsageError(
        "model needs --check, --stats, --image OUT.png, --rollout, --flow, --steps or --out "
        "(what to do with the model)");
  }
  const int step = intOption(parser, QStringLiteral("step"), -1, 0);
  if (!out.isEmpty() && !imageView) {
    if (step < 0) throw UsageError("--out writes one generation step's weights: give --step k");
    requireSuffix(QStringLiteral("out"), out,
                  {QStringLiteral(".npz"), QStringLiteral(".safetensors")});
  }
  if (rollout && flow && !image.isEmpty() && !imageView)
    throw UsageError("--image draws one picture: give --rollout or --flow, not both");
  if (layerView && (image.isEmpty() || rollout || flow || step >= 0))
    throw UsageError("--view draws one layer to --image, without --rollout, --flow or --step");
  const double eps = sinkEps(parser);
  if (!image.isEmpty() && !imageView) {
    QStringList suffixes = {QStringLiteral(".png"), QStringLiteral(".svg")};
    if (layerView) suffixes << QStringLiteral(".pdf");
    requireSuffix(QStringLiteral("image"), image, suffixes);
    if (step >= 0 && image.endsWith(QStringLiteral(".svg"), Qt::CaseInsensitive))
      throw UsageError("--step --image draws a PNG: give OUT.png");
  }
  double tolerance = model::kDefaultTolerance;
  if (parser.isSet(QStringLiteral("tolerance"))) {
    bool ok = false;
    tolerance = parser.value(QStringLiteral("tolerance")).toDouble(&ok);
    if (!ok || !(tolerance >= 0.0)) {
      throw UsageError(QStringLiteral("--tolerance \"%1\" must be a number of at least 0")
                           .arg(parser.value(QStringLiteral("tolerance")))
                           .toStdString());
    }
  }
  const int batch = intOption(parser, QStringLiteral("batch"), 0, 0);
  const QSize size(intOption(parser, QStringLiteral("width"), 1600, 64),
                   intOption(parser, QStringLiteral("height"), 1000, 64));

  const model::Model m = loadModelSource(parser);
  const QString path = parser.isSet(QStringLiteral("model")) ? parser.value(QStringLiteral("model"))
                                                            : parser.value(QStringLiteral("weights"));
  if (check && m.index.weights_only) {
    throw InvalidInput("--check: " + path.toStdString() +
                       " holds attention weights only: there are no parameters or inputs to "
                       "recompute its layers from, so nothing to compare with PyTorch (its rows "
                       "were checked on reading; use --stats, --image, --rollout or --flow)");
  }
  const std::int64_t batches = m.layers.front().problem.config.batch();
  if (batch >= batches) {
    throw InvalidInput("--batch " + std::to_string(batch) + ": the model's inputs have " +
                       std::to_string(batches) + " batch element" + (batches == 1 ? "" : "s") +
                       " (0 to " + std::to_string(batches - 1) + ")");
  }
  if (step >= 0) (void)model::step_layers(m.index, step, "--step");
  const model::ComputedModel computed = model::compute_model(m, tolerance);

  int exitCode = kExitOk;
  if (check) {
    for (std::size_t i = 0; i < m.layers.size(); ++i) {
      const model::LayerCheck& c = computed.checks[i];
      std::cout << model::layer_title(m.layers[i].info, i) << ": attn_output "
                << difference(c.output_diff);
      if (c.weights_diff) std::cout << ", attn_output_weights " << difference(*c.weights_diff);
      if (!c.path_agrees()) {
        std::cout << "; PyTorch took its " << to_string(*c.recorded_path)
                  << " path, mhaviz computed the " << to_string(c.path) << " path";
      }
      std::cout << (c.ok ? "  ok" : c.path_agrees() ? "  ABOVE TOLERANCE" : "  OTHER PATH") << '\n';
    }
    const std::size_t bad = computed.disagreeing();
    std::cout << (bad == 0
                      ? "all " + std::to_string(m.layers.size()) + " layers match PyTorch within " +
                            difference(tolerance)
                      : std::to_string(bad) + " of " + std::to_string(m.layers.size()) +
                            " layers differ from PyTorch by more than " + difference(tolerance))
              << '\n';
    if (bad > 0) {
      std::cerr << "error: " << bad << " layer(s) of " << path.toStdString()
                << " differ from PyTorch's stored outputs by more than " << difference(tolerance)
                << "; see the lines above (a model captured in training mode with dropout "
                   "cannot match; OTHER PATH: the layer's training, grad_mode or "
                   "self_attention differs from the captured call's)\n";
      exitCode = kExitInvalidInput;
    }
  }
  if (stats) printSinkRates(m, computed, eps, batch);
  if (compare) printComparison(parser, m, computed, batch);
  if (imageView) {
    modelImageCommand(parser, m, computed, batch, size);
    return exitCode;
  }
  if (steps) printSteps(m, computed, batch);
  if (!out.isEmpty()) {
    writeStepRows(model::step_rows(m, computed.weights, step, batch, "--step"), out.toStdString());
    std::cout << "wrote " << out.toStdString() << '\n';
  }
  if (layerView) {
    exportModelLayer(parser, m, batch, size, image);
    std::cout << "wrote " << image.toStdString() << '\n';
    return exitCode;
  }
  const bool svg = image.endsWith(QStringLiteral(".svg"), Qt::CaseInsensitive);
  // A picture as PNG (drawn) or SVG (painted, its text kept as text).
  const auto save = [&](const std::function<QImage()>& draw,
                        const std::function<void(QPainter&)>& paint) {
    const QString error = svg ? ui::saveModelSvg(paint, size, image, QFileInfo(path).fileName())
                              : ui::saveModelPicture(draw(), image);
    if (!error.isEmpty()) throw InvalidInput(error.toStdString());
    std::cout << "wrote " << image.toStdString() << '\n';
  };
  if (rollout) {
    const model::Rollout r = model::attention_rollout(m, computed.weights, batch, step);
    if (image.isEmpty()) {
      std::cout << "rollout over layers";
      printAcrossLayers(r, batch);
    } else {
      save([&] { return ui::drawRollout(m, r, size); },
           [&](QPainter& p) { ui::paintRollout(p, m, r, size); });
    }
  }
  if (flow) {
    const model::AttentionFlow f =
        model::attention_flow(m, computed.weights, batch, step, "--flow");
    if (image.isEmpty()) {
      std::cout << "attention flow (" << f.tokens * f.tokens << " maximum flows over " << f.edges
                << " edges; rows normalised) over layers";
      printAcrossLayers(f, batch);
    } else {
      save([&] { return ui::drawFlow(m, f, size); },
           [&](QPainter& p) { ui::paintFlow(p, m, f, size); });
    }
  }
  if (!rollout && !flow && !image.isEmpty()) {
    save(
        [&] {
          return step >= 0 ? ui::drawStepRows(
                                 m, model::step_rows(m, computed.weights, step, batch, "--step"),
                                 size)
                           : ui::drawModelGrid(m, computed, batch, size);
        },
        [&](QPainter& p) { ui::paintModelGrid(p, m, computed, batch, size); });
  }
  return exitCode;
}

}  // namespace mhaviz::cli
