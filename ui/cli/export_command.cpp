// mhaviz-cli export: the window's heatmap grid, head view or text view written to PNG/SVG/PDF
// through mhaviz::ui::exportImage, exportHeadView or exportTextView (the same code the window's
// export uses). Runs on the main thread of a QApplication (offscreen platform by default; see
// cli_app.cpp).

#include <QStringList>
#include <algorithm>
#include <array>
#include <iostream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "cli/colormap_option.hpp"
#include "cli/commands.hpp"
#include "cli/output_path.hpp"
#include "cli/problem_options.hpp"
#include "cli/usage_error.hpp"
#include "mhaviz/core/analysis/measures.hpp"
#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/long_context/long_context.hpp"
#include "mhaviz/core/plan/memory.hpp"
#include "mhaviz/core/plan/view_plan.hpp"
#include "render/image_export.hpp"
#include "stages/reduced_result.hpp"
#include "stages/stage_data.hpp"
#include "stages/view_options.hpp"
#include "tokens/head_lines.hpp"
#include "tokens/head_view_picture.hpp"
#include "tokens/text_view_picture.hpp"

namespace mhaviz::cli {

namespace {

using ui::Colormap;
using ui::Stage;

const std::array<std::pair<const char*, Stage>, 15> kStages = {{
    {"weights", Stage::weights},
    {"weights_before_dropout", Stage::weights_before_dropout},
    {"scores", Stage::scores},
    {"mask", Stage::mask},
    {"raw_scores", Stage::raw_scores},
    {"capped_scores", Stage::capped_scores},
    {"q", Stage::q},
    {"k", Stage::k},
    {"v", Stage::v},
    {"head_output", Stage::head_output},
    {"merged", Stage::merged},
    {"output", Stage::output},
    {"value_norms", Stage::value_norms},
    {"value_zeroing", Stage::value_zeroing},
    {"sink_scores", Stage::sink_scores},
}};

/// The enum value named by an option, or a UsageError listing the accepted names.
template <typename T, std::size_t Size>
T choice(const QCommandLineParser& parser, const QString& option,
         const std::array<std::pair<const char*, T>, Size>& table, T fallback) {
  if (!parser.isSet(option)) return fallback;
  const QString value = parser.value(option);
  QStringList names;
  for (const auto& [name, v] : table) {
    if (value == QLatin1String(name)) return v;
    names << QString::fromLatin1(name);
  }
  throw UsageError(QStringLiteral("--%1 \"%2\" is not one of %3")
                       .arg(option, value, names.join(QStringLiteral(", ")))
                       .toStdString());
}

/// A non-negative (or, with `positive`, strictly positive) integer option.
int intOption(const QCommandLineParser& parser, const QString& option, int fallback,
              bool positive) {
  if (!parser.isSet(option)) return fallback;
  bool ok = false;
  const int v = parser.value(option).toInt(&ok);
  if (!ok || v < (positive ? 1 : 0)) {
    throw UsageError(
        QStringLiteral("--%1 \"%2\" must be a %3 integer")
            .arg(option, parser.value(option),
                 positive ? QStringLiteral("positive") : QStringLiteral("non-negative"))
            .toStdString());
  }
  return v;
}

/// --heads: "all" (-1) or one head index. The grid shows all heads or one (ViewOptions::soloHead);
/// a list naming every head means all.
int soloHead(const QCommandLineParser& parser, std::int64_t heads) {
  const QString value = parser.value(QStringLiteral("heads")).trimmed();
  if (!parser.isSet(QStringLiteral("heads")) || value == QLatin1String("all")) return -1;
  QList<std::int64_t> picked;
  for (const QString& part : value.split(',')) {
    bool ok = false;
    const int h = part.trimmed().toInt(&ok);
    if (!ok || h < 0) {
      throw UsageError(QStringLiteral("--heads \"%1\" must be \"all\" or a head index such as 0")
                           .arg(value)
                           .toStdString());
    }
    if (h >= heads) {
      throw InvalidInput(QStringLiteral("--heads %1: the configuration has num_heads=%2, so heads "
                                        "are numbered 0 to %3")
                             .arg(h)
                             .arg(heads)
                             .arg(heads - 1)
                             .toStdString());
    }
    if (!picked.contains(h)) picked << h;
  }
  if (picked.size() == 1) return static_cast<int>(picked.front());
  if (picked.size() == heads) return -1;
  throw UsageError(QStringLiteral("--heads \"%1\": the grid shows all heads or one; give \"all\" "
                                  "or a single head index")
                       .arg(value)
                       .toStdString());
}

/// --heads for the head view: "all" or a comma-separated list of head indices, as per-head
/// flags (empty: all).
std::vector<bool> chosenHeads(const QCommandLineParser& parser, std::int64_t heads) {
  const QString value = parser.value(QStringLiteral("heads")).trimmed();
  if (!parser.isSet(QStringLiteral("heads")) || value == QLatin1String("all")) return {};
  std::vector<bool> chosen(static_cast<std::size_t>(heads), false);
  for (const QString& part : value.split(',')) {
    bool ok = false;
    const int h = part.trimmed().toInt(&ok);
    if (!ok || h < 0) {
      throw UsageError(QStringLiteral("--heads \"%1\" must be \"all\" or head indices such as 0,2")
                           .arg(value)
                           .toStdString());
    }
    if (h >= heads) {
      throw InvalidInput(QStringLiteral("--heads %1: the configuration has num_heads=%2, so heads "
                                        "are numbered 0 to %3")
                             .arg(h)
                             .arg(heads)
                             .arg(heads - 1)
                             .toStdString());
    }
    chosen[static_cast<std::size_t>(h)] = true;
  }
  return chosen;
}

/// --coverage: a share in (0, 1] (default 1: every line).
double coverageOption(const QCommandLineParser& parser) {
  if (!parser.isSet(QStringLiteral("coverage"))) return 1.0;
  bool ok = false;
  const double v = parser.value(QStringLiteral("coverage")).toDouble(&ok);
  if (!ok || !(v > 0.0) || v > 1.0) {
    throw InvalidInput(QStringLiteral("--coverage \"%1\" must be a share above 0 and at most 1 "
                                      "(0.9: per query the strongest lines carrying 90 % of its "
                                      "weight)")
                           .arg(parser.value(QStringLiteral("coverage")))
                           .toStdString());
  }
  return v;
}

/// --query: the query highlighted in the head view (its lines only, weights at the keys).
int queryOption(const QCommandLineParser& parser, std::int64_t queries) {
  if (!parser.isSet(QStringLiteral("query"))) return -1;
  bool ok = false;
  const int q = parser.value(QStringLiteral("query")).toInt(&ok);
  if (!ok || q < 0 || q >= queries) {
    throw InvalidInput(QStringLiteral("--query \"%1\" must be a query index from 0 to %2 (L=%3)")
                           .arg(parser.value(QStringLiteral("query")))
                           .arg(queries - 1)
                           .arg(queries)
                           .toStdString());
  }
  return q;
}

/// --heads for the text view: "all" (-1: the heads' average) or one head index.
int textHead(const QCommandLineParser& parser, std::int64_t heads) {
  const std::vector<bool> chosen = chosenHeads(parser, heads);
  if (chosen.empty()) return -1;
  const auto count = std::count(chosen.begin(), chosen.end(), true);
  if (count == heads) return -1;
  if (count == 1)
    return static_cast<int>(std::find(chosen.begin(), chosen.end(), true) - chosen.begin());
  throw UsageError(QStringLiteral("--heads \"%1\": the text view shades by one head or by the "
                                  "average over heads; give \"all\" or one head index")
                       .arg(parser.value(QStringLiteral("heads")))
                       .toStdString());
}

/// Token labels: the option (one per token, comma-separated), else the configuration's.
QStringList labels(const QCommandLineParser& parser, const QString& option,
                   const std::vector<std::string>& fromConfig, std::int64_t count,
                   const char* length) {
  if (!parser.isSet(option)) {
    QStringList out;
    for (const std::string& label : fromConfig) out << QString::fromStdString(label);
    return out;
  }
  const QStringList out = parser.value(option).split(',');
  if (out.size() != count) {
    throw InvalidInput(QStringLiteral("--%1 has %2 label(s), but %3 = %4 needs %4 (one per "
                                      "token, comma-separated); give %4 or leave the option out")
                           .arg(option)
                           .arg(out.size())
                           .arg(QString::fromLatin1(length))
                           .arg(count)
                           .toStdString());
  }
  return out;
}

/// A configuration whose maps exceed the memory limit: the weights computed stripe by stripe and
/// folded to 512 x 512 values per map (block mean or max, --reduce), drawn by the same grid.
int exportReduced(const QCommandLineParser& parser, ui::ViewOptions view, ui::ExportOptions options,
                  const QString& image, std::uint64_t fullNeed) {
  if (view.stage != Stage::weights) {
    const auto named = std::find_if(kStages.begin(), kStages.end(),
                                    [&](const auto& entry) { return entry.second == view.stage; });
    throw InvalidInput(
        "--stage " + std::string(named->first) + ": this configuration's maps need " +
        format_bytes(fullNeed) +
        ", more than the memory limit, so it is drawn reduced, weights only; use --stage weights, "
        "or write a part with mhaviz-cli run --head H --queries A:B");
  }
  const Problem problem = loadProblem(parser, MemoryMode::reduced);
  view.soloHead = soloHead(parser, problem.config.num_heads);
  if (view.batch >= problem.config.batch()) {
    throw InvalidInput(QStringLiteral("--batch %1: the input has %2 batch element(s) (0 to %3)")
                           .arg(view.batch)
                           .arg(problem.config.batch())
                           .arg(problem.config.batch() - 1)
                           .toStdString());
  }
  ReducedRequest request;
  request.batch = view.batch;
  request.head = view.soloHead;
  request.max_rows = 512;
  request.max_cols = 512;
  request.reduce = view.reduce == ui::Reduce::max ? BlockReduce::max : BlockReduce::mean;
  const ReducedWeights reduced =
      reduced_weights(problem.config, problem.params, problem.inputs, request);
  const ForwardResult result = ui::reducedResult(reduced, problem.config);
  view.queryLabels = ui::blockLabels(reduced.query_begin, reduced.block_rows, reduced.rows);
  view.keyLabels = ui::blockLabels(reduced.key_begin, reduced.block_cols, reduced.cols);
  // Weights of thousands of keys are small: the colour scale runs from 0 to the largest value.
  view.autoRange = true;
  // The grid's average is the mean of the head maps: right for block means only.
  if (request.reduce == BlockReduce::max) view.showAverage = false;
  const QString description = ui::reducedDescription(reduced);
  if (options.title.isEmpty()) {
    options.title =
        ui::describeConfig(problem.config, view.batch) + QStringLiteral(" \u2014 ") +
        ui::shownStageName(view.stage) +
        (view.soloHead >= 0 ? QStringLiteral(", head %1").arg(view.soloHead) : QString()) +
        QStringLiteral(" \u2014 ") + description;
  }
  const QString error = ui::exportImage(result, view, options, image);
  if (!error.isEmpty()) throw InvalidInput(error.toStdString());
  std::cout << "wrote " << image.toStdString() << " (" << description.toStdString()
            << "; every map at full size needs " << format_bytes(fullNeed) << ")\n";
  return kExitOk;
}

}  // namespace

void addExportOptions(QCommandLineParser& parser) {
  addProblemOptions(parser, true);
  parser.addOptions({
      {QStringLiteral("image"), QStringLiteral("Output image; the format follows the extension."),
       QStringLiteral("OUT.png|.svg|.pdf")},
      {QStringLiteral("view"),
       QStringLiteral("grid (default): the heatmaps; head: the head view (a line from each "
                      "query to each key per head, as strong as its weight); text: the text "
                      "view (the key tokens as running text, shaded by one query's weights)."),
       QStringLiteral("grid|head|text")},
      {QStringLiteral("coverage"),
       QStringLiteral("Head view: per query and head only the strongest lines carrying this "
                      "share of its weight, in (0, 1] (default 1)."),
       QStringLiteral("share")},
      {QStringLiteral("query"),
       QStringLiteral("Head view: draw only this query's lines, with the weights at the keys. "
                      "Text view: the query whose weights shade the keys (default: the last)."),
       QStringLiteral("i")},
      {QStringLiteral("batch"), QStringLiteral("Batch element shown (default 0)."),
       QStringLiteral("n")},
      {QStringLiteral("heads"),
       QStringLiteral("\"all\" (default) or one head index; the head view takes a list (0,2); "
                      "the text view shades by one head, or with \"all\" by their average."),
       QStringLiteral("all|h|h,h...")},
      {QStringLiteral("stage"),
       QStringLiteral("What the maps show: weights (default), weights_before_dropout, scores, "
                      "mask, raw_scores, capped_scores (with attn_logit_softcapping), q, k, v, "
                      "head_output, merged, output, value_norms, value_zeroing, sink_scores."),
       QStringLiteral("stage")},
      {QStringLiteral("colormap"),
       colormapOptionNames(),
       QStringLiteral("name")},
      {QStringLiteral("width"), QStringLiteral("Picture width in logical pixels (default 1600)."),
       QStringLiteral("px")},
      {QStringLiteral("height"), QStringLiteral("Picture height in logical pixels (default 1000)."),
       QStringLiteral("px")},
      {QStringLiteral("dpi-scale"),
       QStringLiteral("Device pixel ratio: a PNG gets width*scale pixels (default 1)."),
       QStringLiteral("factor")},
      {QStringLiteral("transparent"), QStringLiteral("Leave the PNG/SVG background transparent.")},
      {QStringLiteral("no-average"), QStringLiteral("Leave out the map averaged over heads.")},
      {QStringLiteral("per-head-scale"),
       QStringLiteral("Give each map its own colour scale instead of one shared scale.")},
      {QStringLiteral("auto-range"),
       QStringLiteral("Shared colour scale of weights (and other unsigned stages) from 0 to the "
                      "largest value shown instead of the fixed 0..1.")},
      {QStringLiteral("reduce"),
       QStringLiteral("mean (default) or max: how cells are combined when a map has more cells "
                      "than pixels."),
       QStringLiteral("rule")},
      {QStringLiteral("title"),
       QStringLiteral("Title above the grid (default: the configuration and the stage)."),
       QStringLiteral("text")},
      {QStringLiteral("query-labels"),
       QStringLiteral(
           "Comma-separated query token labels (default: the configuration's query_labels)."),
       QStringLiteral("a,b,...")},
      {QStringLiteral("key-labels"),
       QStringLiteral(
           "Comma-separated key token labels (default: the configuration's key_labels)."),
       QStringLiteral("a,b,...")},
  });
}

int exportCommand(const QCommandLineParser& parser) {
  const QString image = requiredValue(parser, QStringLiteral("image"));
  requireSuffix(QStringLiteral("image"), image,
                {QStringLiteral(".png"), QStringLiteral(".svg"), QStringLiteral(".pdf")});
  const QString viewName = parser.value(QStringLiteral("view"));
  if (parser.isSet(QStringLiteral("view")) && viewName != QLatin1String("grid") &&
      viewName != QLatin1String("head") && viewName != QLatin1String("text")) {
    throw UsageError(QStringLiteral("--view \"%1\" is not a view: use grid (the heatmaps), "
                                    "head (the head view) or text (the text view)")
                         .arg(viewName)
                         .toStdString());
  }
  const bool headView = viewName == QLatin1String("head");
  const bool textView = viewName == QLatin1String("text");
  if (!headView && parser.isSet(QStringLiteral("coverage"))) {
    throw UsageError("--coverage belongs to the head view; add --view head");
  }
  if (!headView && !textView && parser.isSet(QStringLiteral("query"))) {
    throw UsageError(
        "--query belongs to the head view and the text view; add --view head or "
        "--view text");
  }
  const double coverage = coverageOption(parser);
  ui::ViewOptions view;
  view.batch = intOption(parser, QStringLiteral("batch"), 0, false);
  view.stage = choice(parser, QStringLiteral("stage"), kStages, Stage::weights);
  view.colormap = colormapOption(parser, Colormap::viridis);
  view.reduce = choice(parser, QStringLiteral("reduce"),
                       std::array<std::pair<const char*, ui::Reduce>, 2>{
                           {{"mean", ui::Reduce::mean}, {"max", ui::Reduce::max}}},
                       ui::Reduce::mean);
  view.perHeadScale = parser.isSet(QStringLiteral("per-head-scale"));
  view.autoRange = parser.isSet(QStringLiteral("auto-range"));
  view.showAverage = !parser.isSet(QStringLiteral("no-average"));

  ui::ExportOptions options;
  options.width = intOption(parser, QStringLiteral("width"), options.width, true);
  options.height = intOption(parser, QStringLiteral("height"), options.height, true);
  if (parser.isSet(QStringLiteral("dpi-scale"))) {
    bool ok = false;
    options.scale = parser.value(QStringLiteral("dpi-scale")).toDouble(&ok);
    if (!ok || !(options.scale > 0.0) || options.scale > 16.0) {
      throw UsageError(QStringLiteral("--dpi-scale \"%1\" must be a number above 0 and at most 16")
                           .arg(parser.value(QStringLiteral("dpi-scale")))
                           .toStdString());
    }
  }
  options.transparent = parser.isSet(QStringLiteral("transparent"));
  options.title = parser.value(QStringLiteral("title"));

  {
    // Too large for every map at once: the reduced view
    // (mhaviz/core/long_context/long_context.hpp).
    const LoadedFiles files = loadFiles(parser);
    const std::int64_t staticLen = staticSrcLen(files.tensors);
    // A refused plan goes the reduced way too: it says what even the reduced view needs.
    if (files.config.tgt_len > 0 && files.config.src_len > 0 && files.config.num_heads > 0 &&
        plan_view(files.config, memoryLimit(parser), staticLen).kind != ViewKind::full) {
      if (headView || textView) {
        throw InvalidInput(
            "--view " + viewName.toStdString() + ": this configuration's maps need " +
            format_bytes(estimate_memory(files.config, staticLen)) +
            ", more than the memory limit; the token views draw up to " +
            std::to_string(ui::kHeadViewMaxTokens) +
            " queries and keys in full. Use --view grid (the reduced view), or shorten L and S");
      }
      return exportReduced(parser, view, options, image, estimate_memory(files.config, staticLen));
    }
  }
  Problem problem;
  const ForwardResult result = computeResult(parser, &problem);
  const auto measures =
      stageNeedsMeasures(view.stage)  // beside the result, not in it
          ? std::make_unique<const ResultMeasures>(measure_result(result, problem.inputs))
          : nullptr;
  ui::HeadViewChoice headChoice;
  ui::TextViewChoice textChoice;
  if (headView) {
    headChoice.chosen = chosenHeads(parser, result.H);
    headChoice.coverage = coverage;
    headChoice.query = queryOption(parser, result.L);
  } else if (textView) {
    textChoice.head = textHead(parser, result.H);
    textChoice.query = queryOption(parser, result.L);
  } else {
    view.soloHead = soloHead(parser, result.H);
  }
  if (view.batch >= result.N) {
    throw InvalidInput(QStringLiteral("--batch %1: the input has %2 batch element%3 (0 to %4)")
                           .arg(view.batch)
                           .arg(result.N)
                           .arg(result.N == 1 ? "" : "s")
                           .arg(result.N - 1)
                           .toStdString());
  }
  if (view.stage == Stage::weights_before_dropout && !result.weights_before_dropout) {
    throw InvalidInput(
        "--stage weights_before_dropout: dropout was not applied; it needs training=true and "
        "dropout > 0 in the configuration (use --stage weights)");
  }
  if (view.stage == Stage::capped_scores && !result.has_capped_scores()) {
    throw InvalidInput(
        "--stage capped_scores: no soft-cap was applied; set attn_logit_softcapping to a "
        "positive number in the configuration (or use --stage raw_scores)");
  }
  // Token labels: the options, else the configuration's query_labels / key_labels.
  view.queryLabels = labels(parser, QStringLiteral("query-labels"), result.config.query_labels,
                            result.L, "tgt_len (L)");
  view.keyLabels = labels(parser, QStringLiteral("key-labels"), result.config.key_labels, result.S,
                          "src_len (S)");
  const QString error =
      headView   ? ui::exportHeadView(result, view, headChoice, options, image, measures.get())
      : textView ? ui::exportTextView(result, view, textChoice, options, image, measures.get())
                 : ui::exportImage(result, view, options, image, measures.get());
  if (!error.isEmpty()) throw InvalidInput(error.toStdString());
  std::cout << "wrote " << image.toStdString() << '\n';
  return kExitOk;
}

}  // namespace mhaviz::cli
