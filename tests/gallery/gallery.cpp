// mhaviz-gallery: renders a fixed set of window states offscreen to PNG, the way every change
// to the window is checked by eye (scripts/gallery; README shows a few of its pictures).
//
//   mhaviz-gallery OUTDIR [--docs DOCSDIR]
//       writes OUTDIR/<name>.png for each state below and checks that every picture exists and
//       is not blank (exit 1 otherwise); --docs also writes half-size copies of the states the
//       README shows into DOCSDIR (docs/images)
//
// Each state gets a fresh MainWindow of a fixed size, with its settings isolated from the
// user's (QStandardPaths test mode), set through the controller's public API as a user's
// change would be; the program waits until the computation and the grid's drawing are done
// and grabs the window. Run it with QT_QPA_PLATFORM=offscreen.

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QSet>
#include <QSettings>
#include <QStandardPaths>
#include <QTest>
#include <cstdio>
#include <functional>
#include <string_view>

#include "compute/compute_controller.hpp"
#include "desktop/language.hpp"
#include "desktop/theme.hpp"
#include "mhaviz/core/io/config_json.hpp"
#include "render/heatmap_grid.hpp"
#include "session/autosave.hpp"
#include "teach/teaching_tools.hpp"
#include "window/main_window.hpp"
#include "window/model_pages.hpp"
#include "window/model_view.hpp"

namespace {

using mhaviz::ui::ComputeController;
using mhaviz::ui::MainWindow;
using mhaviz::ui::Stage;
using mhaviz::ui::ViewOptions;

constexpr int kWidth = 1600;
constexpr int kHeight = 1000;
constexpr int kTimeoutMs = 60000;

struct Shot {
  const char* name;                        // file name without .png
  const char* configJson;                  // nullptr: the window's start-up configuration
  std::function<void(ViewOptions&)> view;  // changes to the view, or empty
  bool chinese = false;
  bool dark = false;
  bool presentation = false;
  const char* model = nullptr;  // a bundled model (File > Examples) shown in the model view
  enum class ModelShows { grid, rollout, layer } modelShows = ModelShows::grid;
};

/// Opens the shot's bundled model and waits until the model view has drawn it; for `layer`,
/// then clicks layer 1 head 3 open in the full view.
QString showModel(MainWindow& window, const Shot& shot) {
  mhaviz::ui::ModelPages* pages = window.pages();
  mhaviz::ui::ModelView* view = pages->modelView();
  if (!pages->openModelExample(QString::fromLatin1(shot.model)))
    return QStringLiteral("%1: no bundled model %2").arg(shot.name, shot.model);
  const auto drawn = [view] {
    return QTest::qWaitFor([view] { return !view->isBusy() && !view->picture().isNull(); },
                           kTimeoutMs);
  };
  if (!drawn()) return QStringLiteral("%1: the model never came").arg(shot.name);
  if (!view->error().isEmpty()) return QStringLiteral("%1: %2").arg(shot.name, view->error());
  if (shot.modelShows == Shot::ModelShows::rollout) {
    view->setShowRollout(true);
    if (!QTest::qWaitFor([view] { return view->mapRect(0, 0).isEmpty(); }, kTimeoutMs))
      return QStringLiteral("%1: the rollout never came").arg(shot.name);
  }
  if (shot.modelShows == Shot::ModelShows::layer) pages->openLayer(1, 3);
  QTest::qWait(500);  // the picture redrawn at the canvas's final size
  return {};
}

/// The states the README shows (docs/images/<name>.png, half size).
const QStringList kDocsShots = {QStringLiteral("bias_k_zero"), QStringLiteral("causal_padding_nan"),
                                QStringLiteral("alibi_per_head"), QStringLiteral("chinese"),
                                QStringLiteral("model_reverse")};

mhaviz::Config parse(const char* json, const char* name) {
  return mhaviz::io::parse_config_json(std::string_view(json), name);
}

/// Waits until the controller has no computation running and the grid has drawn its picture.
bool settle(MainWindow& window) {
  const bool done = QTest::qWaitFor(
      [&window] {
        return !window.controller()->isBusy() && window.controller()->result() != nullptr &&
               !window.grid()->isPreparing();
      },
      kTimeoutMs);
  QTest::qWait(300);  // layout, dock and caption updates after the picture
  QCoreApplication::processEvents();
  return done;
}

/// Not blank: the picture exists, has the window's size and many colours.
QString checkPicture(const QString& path) {
  const QImage image(path);
  if (image.isNull()) return QStringLiteral("cannot read %1").arg(path);
  if (image.width() < 400 || image.height() < 300) {
    return QStringLiteral("%1 is only %2x%3").arg(path).arg(image.width()).arg(image.height());
  }
  QSet<QRgb> colours;
  for (int y = 0; y < image.height(); y += 5) {
    for (int x = 0; x < image.width(); x += 5) colours.insert(image.pixel(x, y));
  }
  if (colours.size() < 40) {
    return QStringLiteral("%1 looks blank (%2 colours)").arg(path).arg(colours.size());
  }
  return {};
}

QString render(const Shot& shot, const QDir& out) {
  QSettings().clear();
  QFile::remove(mhaviz::ui::Autosave::defaultPath());
  mhaviz::ui::installTranslations(shot.chinese ? QLocale(QLocale::Chinese, QLocale::China)
                                               : QLocale(QLocale::English, QLocale::UnitedStates));
  mhaviz::ui::applyTheme(shot.dark ? mhaviz::ui::ThemeChoice::dark
                                   : mhaviz::ui::ThemeChoice::light);
  QString error;
  {
    MainWindow window;
    window.resize(kWidth, kHeight);
    window.show();
    if (!settle(window))
      return QStringLiteral("%1: the start-up picture never came").arg(shot.name);
    ComputeController* controller = window.controller();
    if (shot.configJson == nullptr) window.showFirstPicture();  // what a first start shows
    if (shot.configJson != nullptr) {
      controller->changeConfig(parse(shot.configJson, shot.name), QStringLiteral("gallery"));
    }
    if (shot.view) {
      ViewOptions view = controller->view();
      shot.view(view);
      controller->setView(view);
    }
    if (shot.presentation) {
      auto* teaching =
          window.findChild<mhaviz::ui::TeachingTools*>(QStringLiteral("teachingTools"));
      if (teaching == nullptr) return QStringLiteral("%1: no teaching tools").arg(shot.name);
      teaching->setPresentation(true);
      // Full screen on the offscreen platform is its 800x800 screen: show the presentation
      // layout (fonts, caption, hidden panels) at the gallery's size, as on a projector.
      window.setWindowState(Qt::WindowNoState);
      window.resize(kWidth, kHeight);
    }
    if (shot.model != nullptr) {
      if (QString e = showModel(window, shot); !e.isEmpty()) return e;
    }
    if (!settle(window)) return QStringLiteral("%1: the computation did not finish").arg(shot.name);
    if (!controller->error().isEmpty()) {
      return QStringLiteral("%1: %2").arg(shot.name, controller->error());
    }
    const QString path = out.filePath(QString::fromLatin1(shot.name) + QStringLiteral(".png"));
    if (!window.grab().save(path)) return QStringLiteral("cannot write %1").arg(path);
    error = checkPicture(path);
    if (shot.presentation) {
      auto* teaching =
          window.findChild<mhaviz::ui::TeachingTools*>(QStringLiteral("teachingTools"));
      teaching->setPresentation(false);
    }
  }
  mhaviz::ui::installTranslations(QLocale(QLocale::English, QLocale::UnitedStates));
  mhaviz::ui::applyTheme(mhaviz::ui::ThemeChoice::light);
  return error;
}

}  // namespace

int main(int argc, char* argv[]) {
  QApplication app(argc, argv);
  QStandardPaths::setTestModeEnabled(true);  // never the user's settings, recent files, autosave
  QCoreApplication::setOrganizationName(QStringLiteral("mhaviz-gallery"));
  QCoreApplication::setApplicationName(QStringLiteral("mhaviz-gallery"));
  mhaviz::ui::captureSystemTheme();
  const QStringList args = QCoreApplication::arguments();
  const bool withDocs = args.size() == 4 && args.at(2) == QLatin1String("--docs");
  if ((args.size() != 2 && !withDocs) || args.at(1).startsWith(u'-')) {
    std::fprintf(stderr, "usage: mhaviz-gallery OUTDIR [--docs DOCSDIR]\n");
    return 2;
  }
  QDir out(args.at(1));
  if (!out.mkpath(QStringLiteral("."))) {
    std::fprintf(stderr, "gallery: cannot create %s\n", qPrintable(args.at(1)));
    return 1;
  }

  const QList<Shot> shots = {
      {"default", nullptr, {}},
      {"bias_k_zero",
       R"({"embed_dim": 16, "num_heads": 2, "tgt_len": 6, "src_len": 6, "seed": 3,
           "add_bias_kv": true, "add_zero_attn": true,
           "inputs": {"kind": "sinusoidal", "content_scale": 0.3, "self_attention": true}})",
       {}},
      {"causal_padding_nan",
       R"({"embed_dim": 16, "num_heads": 2, "batch_size": 2, "tgt_len": 6, "src_len": 6,
           "seed": 2, "inputs": {"kind": "sinusoidal", "content_scale": 0.3,
                                 "self_attention": true},
           "attn_mask": {"kind": "causal", "dtype": "bool", "shape": "2d"},
           "key_padding_mask": {"padded_keys": [[0, 4, 5], []], "dtype": "bool"}})",
       {}},
      {"alibi_per_head",
       R"({"embed_dim": 32, "num_heads": 4, "tgt_len": 10, "src_len": 10, "seed": 5,
           "average_attn_weights": false,
           "inputs": {"kind": "random", "scale": 1.0, "self_attention": true},
           "attn_mask": {"kind": "alibi", "dtype": "float", "shape": "3d", "causal": true}})",
       [](ViewOptions& v) { v.stage = Stage::mask; }},
      {"in_proj_weight_8_heads",
       R"({"embed_dim": 32, "num_heads": 8, "tgt_len": 8, "src_len": 8, "seed": 1})",
       [](ViewOptions& v) { v.stage = Stage::in_proj_weight; }},
      {"presentation",
       R"({"embed_dim": 16, "num_heads": 4, "tgt_len": 8, "src_len": 8, "seed": 1,
           "inputs": {"kind": "sinusoidal", "content_scale": 0.3, "self_attention": true},
           "attn_mask": {"kind": "causal", "dtype": "bool", "shape": "2d"}})",
       {},
       false,
       false,
       true},
      {"dark", nullptr, {}, false, true},
      {"chinese", nullptr, {}, true},
      {"model_reverse", nullptr, {}, false, false, false, "reverse"},
      {"model_copy_dark", nullptr, {}, false, true, false, "copy"},
      {"model_reverse_chinese", nullptr, {}, true, false, false, "reverse"},
      {"model_rollout", nullptr, {}, false, false, false, "reverse", Shot::ModelShows::rollout},
      {"model_layer", nullptr, {}, false, false, false, "reverse", Shot::ModelShows::layer},
  };

  int failed = 0;
  QElapsedTimer timer;
  for (const Shot& shot : shots) {
    timer.start();
    const QString error = render(shot, out);
    if (error.isEmpty() && withDocs && kDocsShots.contains(QLatin1String(shot.name))) {
      const QString name = QString::fromLatin1(shot.name) + QStringLiteral(".png");
      const QImage full(out.filePath(name));
      const QImage half =
          full.scaled(full.size() / 2, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
      if (!half.save(QDir(args.at(3)).filePath(name))) {
        std::fprintf(stderr, "gallery: cannot write %s into %s\n", shot.name,
                     qPrintable(args.at(3)));
        ++failed;
      }
    }
    if (error.isEmpty()) {
      std::printf("gallery: %s.png (%lld ms)\n", shot.name,
                  static_cast<long long>(timer.elapsed()));
    } else {
      std::fprintf(stderr, "gallery: %s\n", qPrintable(error));
      ++failed;
    }
  }
  std::printf("gallery: %lld pictures in %s, %d failed\n", static_cast<long long>(shots.size()),
              qPrintable(QDir::toNativeSeparators(out.absolutePath())), failed);
  return failed == 0 ? 0 : 1;
}
