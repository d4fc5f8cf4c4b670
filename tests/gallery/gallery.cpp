// mhaviz-gallery: renders a fixed set of window states offscreen to PNG, the way every change
// to the window is checked by eye (scripts/gallery; README and docs/ show a few of them).
//
//   mhaviz-gallery OUTDIR [--docs DOCSDIR]
//       writes OUTDIR/<name>.png for each state (gallery.hpp: their groups, in their own files)
//       and checks that every picture exists and is not blank (exit 1 otherwise); --docs also
//       writes half-size copies of the states README and docs/window.md show into DOCSDIR
//       (docs/images)
//
// Each state gets a fresh MainWindow of a fixed size, with its settings isolated from the
// user's (QStandardPaths test mode), set through the controller's public API as a user's
// change would be; the program waits until the computation and the grid's drawing are done
// and grabs the window. Run it with QT_QPA_PLATFORM=offscreen.

#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QSet>
#include <QSettings>
#include <QSize>
#include <QStandardPaths>
#include <QTest>
#include <array>
#include <cstdio>
#include <functional>
#include <string_view>

#include "gallery.hpp"

#include "compare/compare_panel.hpp"
#include "compute/computation.hpp"
#include "desktop/language.hpp"
#include "desktop/theme.hpp"
#include "document/document.hpp"
#include "mhaviz/core/io/config_json.hpp"
#include "model/model_pages.hpp"
#include "model/model_view.hpp"
#include "render/heatmap_grid.hpp"
#include "session/autosave.hpp"
#include "teach/teaching_tools.hpp"
#include "tokens/head_view.hpp"
#include "tokens/text_view.hpp"
#include "vision/image_view.hpp"
#include "window/main_window.hpp"
#include "window/workspace_arrangements.hpp"
#include "window/workspaces.hpp"

namespace mhaviz::gallery {

namespace {

using mhaviz::ui::Computation;
using mhaviz::ui::Document;
using mhaviz::ui::MainWindow;
using mhaviz::ui::Stage;
using mhaviz::ui::ViewOptions;

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
  if (shot.modelShows == Shot::ModelShows::rollout || shot.modelShows == Shot::ModelShows::flow) {
    view->setMode(shot.modelShows == Shot::ModelShows::flow ? mhaviz::ui::ModelMode::flow
                                                            : mhaviz::ui::ModelMode::rollout);
    if (!QTest::qWaitFor([view] { return view->mapRect(0, 0).isEmpty(); }, kTimeoutMs))
      return QStringLiteral("%1: the rollout or flow never came").arg(shot.name);
  }
  if (shot.modelShows == Shot::ModelShows::step) {
    if (view->modes()->step() < 0)
      return QStringLiteral("%1: the model has no steps").arg(shot.name);
    view->modes()->setStep(3);
  }
  if (shot.modelShows == Shot::ModelShows::layer ||
      shot.modelShows == Shot::ModelShows::layerThenBack) {
    pages->openLayer(1, 3);
  }
  if (shot.modelShows == Shot::ModelShows::layerThenBack) {
    QTest::qWait(200);
    pages->showModelView();
  }
  if (shot.modelShows == Shot::ModelShows::selected) pages->selectLayer(1, 3);
  if (shot.modelShows == Shot::ModelShows::image) {
    mhaviz::ui::ImageView* image = window.imageView();
    window.imageViewDock()->raise();
    if (!QTest::qWaitFor([image] { return image->scene() != nullptr && !image->isBusy(); },
                         kTimeoutMs))
      return QStringLiteral("%1: the image view never came: %2").arg(shot.name, image->message());
  }
  QTest::qWait(500);  // the picture redrawn at the canvas's final size
  return {};
}

/// The states README and docs/window.md show (docs/images/<name>.png, half size).
const QStringList kDocsShots = {
    QStringLiteral("bias_k_zero"),       QStringLiteral("causal_padding_nan"),
    QStringLiteral("alibi_per_head"),    QStringLiteral("chinese"),
    QStringLiteral("pattern_prefix_lm"), QStringLiteral("pattern_document"),
    QStringLiteral("pattern_dilated"),   QStringLiteral("pattern_sink"),
    QStringLiteral("pattern_softcap"),   QStringLiteral("block_sparsity"),
    QStringLiteral("compare"),           QStringLiteral("value_norms"),
    QStringLiteral("value_zeroing"),     QStringLiteral("sink_scores"),
    QStringLiteral("model_reverse"),     QStringLiteral("model_flow"),
    QStringLiteral("model_step"),        QStringLiteral("model_sink_rate"),
    QStringLiteral("head_view"),         QStringLiteral("text_view_cross"),
    QStringLiteral("model_selected"),    QStringLiteral("ws_explore"),
    QStringLiteral("ws_tokens"),         QStringLiteral("ws_compare_1280x720"),
    QStringLiteral("image_view"),        QStringLiteral("tokens_vision"),
    QStringLiteral("model_weights_gqa"), QStringLiteral("model_compare_files")};

mhaviz::Config parse(const char* json, const char* name) {
  return mhaviz::io::parse_config_json(std::string_view(json), name);
}

/// Shows a dock and waits until its view is laid out at the dock's size (shown, with the
/// window's layout requests handled), instead of waiting a fixed time.
bool showDock(QDockWidget* dock) {
  // (the Tokens workspace, which choosing one token view shows, has the other shown already)
  if (!dock->isVisible()) dock->toggleViewAction()->trigger();
  const bool shown = QTest::qWaitFor(
      [dock] { return dock->widget()->isVisible() && dock->widget()->width() > 0; }, kTimeoutMs);
  QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
  return shown;
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
    window.resize(shot.size);
    window.show();
    if (!settle(window))
      return QStringLiteral("%1: the start-up picture never came").arg(shot.name);
    Document* document = window.document();
    Computation* computation = window.computation();
    if (shot.memoryLimit > 0) computation->setMemoryLimit(shot.memoryLimit);
    if (shot.configJson == nullptr) window.showFirstPicture();  // what a first start shows
    if (shot.configJson != nullptr) {
      document->changeConfig(parse(shot.configJson, shot.name), QStringLiteral("gallery"));
    }
    if (shot.view) {
      // A stage only some results have (soft-capped scores) is kept once the result has it.
      if (!settle(window))
        return QStringLiteral("%1: the computation did not finish").arg(shot.name);
      ViewOptions view = document->view();
      shot.view(view);
      document->setView(view);
    }
    if (shot.zoom[1] > 0) {
      if (!settle(window))
        return QStringLiteral("%1: the computation did not finish").arg(shot.name);
      if (shot.beforeZoom != nullptr) {
        const QString path =
            out.filePath(QString::fromLatin1(shot.beforeZoom) + QStringLiteral(".png"));
        if (!window.grab().save(path)) return QStringLiteral("cannot write %1").arg(path);
        if (QString e = checkPicture(path); !e.isEmpty()) return e;
      }
      computation->zoomReduced(shot.zoom[0], shot.zoom[1], shot.zoom[2], shot.zoom[3],
                               window.grid()->mapPixels());
    }
    if (shot.presentation) {
      window.teaching()->setPresentation(true);
      // Full screen on the offscreen platform is its 800x800 screen: show the presentation
      // layout (fonts, caption, hidden panels) at the shot's size, as on a projector.
      if (!QTest::qWaitFor([&] { return window.isFullScreen(); }, kTimeoutMs))
        return QStringLiteral("%1: presentation mode never took the screen").arg(shot.name);
      window.setWindowState(Qt::WindowNoState);
      window.setGeometry(QRect(QPoint(0, 0), shot.size));
      if (!QTest::qWaitFor([&] { return window.size() == shot.size && !window.isFullScreen(); },
                           kTimeoutMs)) {
        return QStringLiteral("%1: presentation mode kept its size").arg(shot.name);
      }
    }
    if (shot.masks) {
      window.maskDock()->raise();
    }
    if (shot.model != nullptr) {
      if (QString e = showModel(window, shot); !e.isEmpty()) return e;
    }
    if (shot.headView) {
      if (!showDock(window.headViewDock()))
        return QStringLiteral("%1: the head view never showed").arg(shot.name);
      if (shot.headQuery >= 0) {
        window.headView()->setPinned({mhaviz::ui::TokenHit::Side::query, shot.headQuery});
      }
    }
    if (shot.textView) {
      if (!showDock(window.textViewDock()))
        return QStringLiteral("%1: the text view never showed").arg(shot.name);
      if (shot.textQuery >= 0) window.textView()->setPinnedQuery(shot.textQuery);
    }
    if (shot.workspace >= 0) window.workspaces()->setCurrent(shot.workspace);
    if (shot.headView &&
        !QTest::qWaitFor([&window] { return !window.headView()->isDrawing(); }, kTimeoutMs)) {
      return QStringLiteral("%1: the head view's lines never came").arg(shot.name);
    }
    if (shot.steps) {
      if (QString e = shot.steps(window); !e.isEmpty())
        return QStringLiteral("%1: %2").arg(shot.name, e);
    }
    if (!settle(window)) return QStringLiteral("%1: the computation did not finish").arg(shot.name);
    if (shot.compareB != nullptr) {
      mhaviz::ui::ComparePanel* panel = window.comparePanel();
      panel->pin();
      document->changeConfig(parse(shot.compareB, shot.name), QStringLiteral("gallery B"));
      if (!settle(window) || !QTest::qWaitFor(
                                 [&] {
                                   return panel->isUpToDate() &&
                                          panel->resultB() == document->computed().result;
                                 },
                                 kTimeoutMs)) {
        return QStringLiteral("%1: the difference never came").arg(shot.name);
      }
      QTest::qWait(300);
    }
    if (!document->computed().error.isEmpty()) {
      return QStringLiteral("%1: %2").arg(shot.name, document->computed().error);
    }
    if (window.size() != shot.size) {
      return QStringLiteral("%1: the window is %2x%3, not %4x%5 (state %6)")
          .arg(shot.name)
          .arg(window.width())
          .arg(window.height())
          .arg(shot.size.width())
          .arg(shot.size.height())
          .arg(int(window.windowState()));
    }
    const QString path = out.filePath(QString::fromLatin1(shot.name) + QStringLiteral(".png"));
    if (!window.grab().save(path)) return QStringLiteral("cannot write %1").arg(path);
    error = checkPicture(path);
    if (shot.presentation) {
      window.teaching()->setPresentation(false);
    }
  }
  mhaviz::ui::installTranslations(QLocale(QLocale::English, QLocale::UnitedStates));
  mhaviz::ui::applyTheme(mhaviz::ui::ThemeChoice::light);
  return error;
}

}  // namespace

bool settle(MainWindow& window) {
  const bool done = QTest::qWaitFor(
      [&window] {
        return !window.document()->computed().busy && !window.document()->computed().measuring &&
               window.document()->computed().result != nullptr && !window.grid()->isPreparing();
      },
      kTimeoutMs);
  QTest::qWait(300);  // layout, dock and caption updates after the picture
  QCoreApplication::processEvents();
  return done;
}

}  // namespace mhaviz::gallery

int main(int argc, char* argv[]) {
  using namespace mhaviz::gallery;
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

  // In this order: the grid's states, the token and model views', the workspaces', a vision
  // transformer's tokens, weights-only model files.
  QList<Shot> shots = gridShots();
  shots += viewShots();
  shots += workspaceShots();
  shots += mhaviz::gallery::visionShots();
  shots += mhaviz::gallery::weightsOnlyShots();

  // MHAVIZ_GALLERY_ONLY=name,name renders those states alone (while working on them).
  const QStringList only = qEnvironmentVariable("MHAVIZ_GALLERY_ONLY")
                               .split(QLatin1Char(','), Qt::SkipEmptyParts);
  int failed = 0;
  QElapsedTimer timer;
  for (const Shot& shot : shots) {
    if (!only.isEmpty() && !only.contains(QLatin1String(shot.name))) continue;
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
