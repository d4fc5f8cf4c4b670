// mhaviz-cli compare: two configurations (A and B) and their signed difference B - A, lined
// up by key meaning (ui/stages/compare_stage, mhaviz::grid_difference): a picture of the
// difference grid (the window's HeatmapGrid) or every comparable stage's difference as .npz.

#include <QStringList>
#include <array>
#include <filesystem>
#include <iostream>
#include <string>
#include <utility>

#include "cli/commands.hpp"
#include "cli/output_path.hpp"
#include "cli/problem_options.hpp"
#include "cli/usage_error.hpp"
#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/io/tensor_file.hpp"
#include "render/image_export.hpp"
#include "stages/compare_stage.hpp"

namespace mhaviz::cli {

namespace {

using ui::Stage;

struct StageName {
  const char* option;  // --stage value
  const char* tensor;  // the name `run` gives the stage's tensor in its .npz
  Stage stage;
};

const std::array<StageName, 11> kCompareStages = {{
    {"weights", "weights_per_head", Stage::weights},
    {"weights_before_dropout", "weights_before_dropout", Stage::weights_before_dropout},
    {"raw_scores", "raw_scores", Stage::raw_scores},
    {"mask", "mask", Stage::mask},
    {"scores", "scores", Stage::scores},
    {"q", "q", Stage::q},
    {"k", "k", Stage::k},
    {"v", "v", Stage::v},
    {"head_output", "head_output", Stage::head_output},
    {"merged", "merged", Stage::merged},
    {"output", "output", Stage::output},
}};

const StageName* stageOption(const QCommandLineParser& parser) {
  if (!parser.isSet(QStringLiteral("stage"))) return nullptr;
  const QString value = parser.value(QStringLiteral("stage"));
  QStringList names;
  for (const StageName& s : kCompareStages) {
    if (value == QLatin1String(s.option)) return &s;
    names << QString::fromLatin1(s.option);
  }
  throw UsageError(QStringLiteral("--stage \"%1\" is not one of %2")
                       .arg(value, names.join(QStringLiteral(", ")))
                       .toStdString());
}

int batchOption(const QCommandLineParser& parser) {
  if (!parser.isSet(QStringLiteral("batch"))) return 0;
  bool ok = false;
  const int v = parser.value(QStringLiteral("batch")).toInt(&ok);
  if (!ok || v < 0) {
    throw UsageError(QStringLiteral("--batch \"%1\" must be a non-negative integer")
                         .arg(parser.value(QStringLiteral("batch")))
                         .toStdString());
  }
  return v;
}

void printNotes(const QStringList& notes) {
  for (const QString& note : notes)
    std::cerr << "note: " << note.toStdString() << ": not in the difference\n";
}

int writeImage(const ForwardResult& a, const ForwardResult& b, const StageName* stage, int batch,
               const QString& image) {
  ui::ViewOptions view;
  view.stage = stage != nullptr ? stage->stage : Stage::weights;
  view.batch = batch;
  const ui::CompareData data = ui::compareStage(a, b, view);
  if (!data.ok()) {
    throw InvalidInput("cannot compare " + ui::stageName(view.stage).toStdString() + ": " +
                       data.mismatch.toStdString() +
                       " (compare needs the same sizes in A and B; pick another --stage or "
                       "change the configurations)");
  }
  printNotes(data.notes);
  ui::ExportOptions options;
  options.title = QStringLiteral("B \u2212 A, %1 \u2014 A: %2; B: %3")
                      .arg(ui::shownStageName(view.stage), ui::describeConfig(a.config, batch),
                           ui::describeConfig(b.config, batch));
  if (!data.notes.isEmpty())
    options.title += QLatin1Char('\n') + data.notes.join(QStringLiteral("; "));
  const QString error = ui::exportStageImage(data.diff, view, options, image);
  if (!error.isEmpty()) throw InvalidInput(error.toStdString());
  std::cout << "wrote " << image.toStdString() << '\n';
  return kExitOk;
}

int writeTensors(const ForwardResult& a, const ForwardResult& b, const StageName* only,
                 const QString& out) {
  io::TensorMap tensors;
  std::string skipped;
  for (const StageName& s : kCompareStages) {
    if (only != nullptr && only != &s) continue;
    // weights_before_dropout falls back to the weights without dropout: only both real ones.
    if (s.stage == Stage::weights_before_dropout &&
        !(a.weights_before_dropout && b.weights_before_dropout) && only == nullptr) {
      continue;
    }
    try {
      tensors.emplace(s.tensor, ui::differenceTensor(a, b, s.stage));
    } catch (const InvalidInput& e) {
      if (only != nullptr) throw InvalidInput(std::string("cannot compare ") + e.what());
      skipped += std::string(skipped.empty() ? "" : "; ") + e.what();
    }
  }
  if (tensors.empty()) {
    throw InvalidInput("no stage of A and B lines up: " + skipped +
                       " (compare needs the same sizes in A and B)");
  }
  if (!skipped.empty()) std::cerr << "note: not compared: " << skipped << '\n';
  ui::ViewOptions view;
  printNotes(ui::compareStage(a, b, view).notes);
  io::write_tensor_file(std::filesystem::path(out.toStdString()), tensors, false);
  std::cout << "wrote " << tensors.size() << " differences (B - A) to " << out.toStdString()
            << '\n';
  return kExitOk;
}

}  // namespace

void addCompareOptions(QCommandLineParser& parser) {
  addProblemOptions(parser, true);
  parser.addOptions({
      {QStringLiteral("config-b"), QStringLiteral("Configuration file of B (A is --config)."),
       QStringLiteral("B.json")},
      {QStringLiteral("tensors-b"), QStringLiteral("Tensors file of B (A's is --tensors)."),
       QStringLiteral("T")},
      {QStringLiteral("image"),
       QStringLiteral("Picture of the difference grid B - A; the format follows the extension."),
       QStringLiteral("D.png|.svg|.pdf")},
      {QStringLiteral("out"),
       QStringLiteral("Every stage's difference B - A (.npz or .safetensors), under the names "
                      "`run` uses."),
       QStringLiteral("D.npz")},
      {QStringLiteral("stage"),
       QStringLiteral("The stage compared: weights (default for --image), "
                      "weights_before_dropout, raw_scores, mask, scores, q, k, v, head_output, "
                      "merged, output. With --out: only that stage."),
       QStringLiteral("stage")},
      {QStringLiteral("batch"), QStringLiteral("Batch element of the picture (default 0)."),
       QStringLiteral("n")},
  });
}

int compareCommand(const QCommandLineParser& parser) {
  const bool hasImage = parser.isSet(QStringLiteral("image"));
  const bool hasOut = parser.isSet(QStringLiteral("out"));
  if (hasImage == hasOut) {
    throw UsageError("compare writes either --image D.png|.svg|.pdf or --out D.npz; give one");
  }
  (void)requiredValue(parser, QStringLiteral("config"));
  (void)requiredValue(parser, QStringLiteral("config-b"));
  const StageName* stage = stageOption(parser);
  const int batch = batchOption(parser);
  QString target;
  if (hasImage) {
    target = requiredValue(parser, QStringLiteral("image"));
    requireSuffix(QStringLiteral("image"), target,
                  {QStringLiteral(".png"), QStringLiteral(".svg"), QStringLiteral(".pdf")});
  } else {
    target = requiredValue(parser, QStringLiteral("out"));
    requireSuffix(QStringLiteral("out"), target,
                  {QStringLiteral(".npz"), QStringLiteral(".safetensors")});
  }
  const ForwardResult a = computeResult(parser);
  const ForwardResult b =
      computeResult(parser, nullptr, {}, QStringLiteral("config-b"), QStringLiteral("tensors-b"));
  return hasImage ? writeImage(a, b, stage, batch, target) : writeTensors(a, b, stage, target);
}

}  // namespace mhaviz::cli
