// mhaviz-gallery's states of weights-only model files (gallery.hpp): a grouped-query model
// (num_key_value_heads 2 of 8 heads) in the model view with a head selected, its head view
// grouping the heads; and two runs of it compared (Compare > Compare the model with a file…),
// also at 1280x720, dark and Chinese, and a file of another length refused inline. The files are
// written here, by the gallery itself, into a folder that lives as long as the program.

#include <QCoreApplication>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "compare/compare_panel.hpp"
#include "compare/model_compare.hpp"
#include "gallery.hpp"
#include "mhaviz/core/io/tensor_file.hpp"
#include "model/model_pages.hpp"
#include "model/model_view.hpp"
#include "tokens/head_view.hpp"
#include "window/main_window.hpp"
#include "window/workspace_arrangements.hpp"

namespace mhaviz::gallery {

namespace {

using mhaviz::ui::MainWindow;

constexpr int kLayers = 4, kHeads = 8, kKvHeads = 2;
const std::vector<std::string> kTokens = {"the", "cat", "sat", "on",  "the",
                                          "mat", "because", "it", "was", "warm"};

/// How a run of the grouped-query model attends: the first key/value group's heads look back
/// one token (more sharply in later layers), the second group's at the first token and at the
/// earlier occurrence of the same word; causal. `changed` (the second run) makes layer 2 head 5
/// look at the query's own token and layer 3's first two heads two tokens back.
std::vector<float> layerWeights(int layer, std::int64_t T, bool changed) {
  std::vector<float> w(static_cast<std::size_t>(kHeads * T * T), 0.0F);
  for (int h = 0; h < kHeads; ++h) {
    const bool back = h < kHeads / kKvHeads;
    for (std::int64_t q = 0; q < T; ++q) {
      std::vector<double> score(static_cast<std::size_t>(q + 1), 0.25 + 0.1 * layer);
      for (std::int64_t k = 0; k <= q; ++k) {
        double& s = score[static_cast<std::size_t>(k)];
        if (back) {
          std::int64_t target = q - 1;
          if (changed && layer == 3 && h < 2) target = q - 2;
          if (k == std::max<std::int64_t>(target, 0)) s += 3.0 + 0.6 * layer + 0.3 * (h % 4);
          if (k == q) s += 0.8;
        } else {
          if (k == 0) s += 2.0 + 0.4 * (h % 4);
          if (k < q && kTokens[std::size_t(k % std::int64_t(kTokens.size()))] ==
                           kTokens[std::size_t(q % std::int64_t(kTokens.size()))])
            s += 2.5 + 0.5 * (h % 4);
        }
        if (changed && layer == 2 && h == 5 && k == q) s += 6.0;
      }
      double sum = 0;
      for (const double s : score) sum += std::exp(s);
      for (std::int64_t k = 0; k <= q; ++k)
        w[static_cast<std::size_t>((h * T + q) * T + k)] =
            static_cast<float>(std::exp(score[static_cast<std::size_t>(k)]) / sum);
    }
  }
  return w;
}

/// Writes NAME.json (a version-4 weights-only index, as save_attentions writes it) and NAME.npz.
QString writeRun(const QString& dir, const QString& name, bool changed, std::int64_t T,
                 const char* caption) {
  mhaviz::io::TensorMap tensors;
  QString layers;
  for (int l = 0; l < kLayers; ++l) {
    tensors.emplace(std::to_string(l) + "/weights",
                    mhaviz::Tensor::from({1, kHeads, T, T}, layerWeights(l, T, changed)));
    if (l > 0) layers += QStringLiteral(", ");
    layers += QStringLiteral(R"({"name": "attentions.%1", "shape": [1, %2, %3, %3]})")
                  .arg(l)
                  .arg(kHeads)
                  .arg(T);
  }
  mhaviz::io::write_tensor_file((dir + QLatin1Char('/') + name + QStringLiteral(".npz")).toStdString(),
                                tensors);
  QStringList tokens;
  for (std::int64_t i = 0; i < T; ++i)
    tokens << QString::fromStdString(kTokens[std::size_t(i % std::int64_t(kTokens.size()))]);
  QFile index(dir + QLatin1Char('/') + name + QStringLiteral(".json"));
  if (!index.open(QIODevice::WriteOnly)) return {};
  index.write(QStringLiteral(R"({"format": "mhaviz-model", "version": 4, "tensors": "%1.npz",
    "caption": "%2", "tokens": ["%3"], "num_key_value_heads": %4, "layers": [%5]})")
                  .arg(name, QString::fromLatin1(caption), tokens.join(QStringLiteral("\", \"")))
                  .arg(kKvHeads)
                  .arg(layers)
                  .toUtf8());
  return index.fileName();
}

/// The files, written once: run A, run B (changed), and a run of 9 tokens.
struct Files {
  QTemporaryDir dir;
  QString a, b, shorter;
};
const Files& files() {
  static const std::unique_ptr<Files> made = [] {
    auto f = std::make_unique<Files>();
    f->a = writeRun(f->dir.path(), QStringLiteral("gqa_run_a"), false, 10,
                    "grouped-query attention: heads 0-3 share a key/value head and look back one "
                    "token, heads 4-7 look at the first token and at the word's earlier use");
    f->b = writeRun(f->dir.path(), QStringLiteral("gqa_run_b"), true, 10,
                    "the second run: layer 2 head 5 looks at its own token, layer 3 heads 0-1 two "
                    "tokens back");
    f->shorter = writeRun(f->dir.path(), QStringLiteral("gqa_9_tokens"), false, 9,
                          "nine tokens");
    return f;
  }();
  return *made;
}

/// Waits until `done` holds once the events already posted (resizes, layout requests) are
/// delivered: three rounds, as delivering them can post more. A condition, not a time.
bool settledAfterEvents(const std::function<bool()>& done) {
  for (int round = 0; round < 3; ++round) {
    if (!QTest::qWaitFor(done, kTimeoutMs)) return false;
    QCoreApplication::sendPostedEvents();
    QCoreApplication::processEvents();
  }
  return done();
}

/// Opens `path` in the model view and waits until its grid is drawn.
QString openModel(MainWindow& window, const QString& path) {
  if (path.isEmpty()) return QStringLiteral("the model file could not be written");
  mhaviz::ui::ModelView* view = window.pages()->modelView();
  window.pages()->openModel(path);
  if (!QTest::qWaitFor([view] { return !view->isBusy() && !view->picture().isNull(); },
                       kTimeoutMs) ||
      !view->error().isEmpty()) {
    return QStringLiteral("the model never came: %1").arg(view->error());
  }
  return {};
}

/// The grouped-query model with layer 1 head 5 selected: the head view shows its lines, its
/// chips grouped by key/value head.
QString showGroupedModel(MainWindow& window) {
  if (QString e = openModel(window, files().a); !e.isEmpty()) return e;
  window.pages()->selectLayer(1, 5);
  if (!QTest::qWaitFor(
          [&window] {
            return window.headView()->result() != nullptr && !window.headView()->isDrawing();
          },
          kTimeoutMs)) {
    return QStringLiteral("the head view never drew the stored layer");
  }
  mhaviz::ui::ModelView* view = window.pages()->modelView();
  if (!settledAfterEvents([view] {
                  return !view->isDrawing() && view->picture().size() == view->canvas()->size();
                }))
    return QStringLiteral("the model view was never redrawn at its final size");
  return {};
}

/// Run B open, compared with `with` (run A, or a file that does not fit).
QString compareRuns(MainWindow& window, const QString& with) {
  if (QString e = openModel(window, files().b); !e.isEmpty()) return e;
  mhaviz::ui::ModelCompare* compare = window.comparePanel()->modelCompare();
  compare->compareWith(with);
  // Up to date: A read, the difference computed and the three grids drawn in the dock.
  if (!settledAfterEvents([compare] { return compare->isUpToDate(); }))
    return QStringLiteral("the comparison never came");
  return {};
}

}  // namespace

QList<Shot> weightsOnlyShots() {
  const auto grouped = [](MainWindow& w) { return showGroupedModel(w); };
  const auto compared = [](MainWindow& w) { return compareRuns(w, files().a); };
  const auto mismatch = [](MainWindow& w) { return compareRuns(w, files().shorter); };
  return {
      {.name = "model_weights_gqa", .configJson = nullptr, .view = {}, .steps = grouped},
      {.name = "model_weights_gqa_dark_chinese",
       .configJson = nullptr,
       .view = {},
       .chinese = true,
       .dark = true,
       .steps = grouped},
      {.name = "model_weights_gqa_1280x720",
       .configJson = nullptr,
       .view = {},
       .size = QSize(1280, 720),
       .steps = grouped},
      {.name = "model_compare_files", .configJson = nullptr, .view = {}, .steps = compared},
      {.name = "model_compare_files_1280x720",
       .configJson = nullptr,
       .view = {},
       .size = QSize(1280, 720),
       .steps = compared},
      {.name = "model_compare_files_chinese_dark",
       .configJson = nullptr,
       .view = {},
       .chinese = true,
       .dark = true,
       .steps = compared},
      {.name = "model_compare_files_mismatch",
       .configJson = nullptr,
       .view = {},
       .steps = mismatch},
  };
}

}  // namespace mhaviz::gallery
