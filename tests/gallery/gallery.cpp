// mhaviz-gallery: renders a fixed set of window states offscreen to PNG, the way every change
// to the window is checked by eye (scripts/gallery; README and docs/ show a few of them).
//
//   mhaviz-gallery OUTDIR [--docs DOCSDIR]
//       writes OUTDIR/<name>.png for each state below and checks that every picture exists and
//       is not blank (exit 1 otherwise); --docs also writes half-size copies of the states
//       README and docs/window.md show into DOCSDIR (docs/images)
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

// Configurations of the pattern states shown more than once (themes, languages).
constexpr const char* kPrefixLm =
    R"({"embed_dim": 16, "num_heads": 2, "tgt_len": 12, "src_len": 12, "seed": 4,
        "inputs": {"kind": "sinusoidal", "content_scale": 0.3, "self_attention": true},
        "attn_mask": {"kind": "prefix_lm", "prefix_length": 4}})";
constexpr const char* kDocument =
    R"({"embed_dim": 16, "num_heads": 2, "tgt_len": 12, "src_len": 12, "seed": 4,
        "inputs": {"kind": "sinusoidal", "content_scale": 0.3, "self_attention": true},
        "attn_mask": {"kind": "document", "document_lengths": [4, 3, 5], "causal": true}})";
constexpr const char* kSink =
    R"({"embed_dim": 16, "num_heads": 2, "tgt_len": 16, "src_len": 16, "seed": 4,
        "inputs": {"kind": "sinusoidal", "content_scale": 0.3, "self_attention": true},
        "attn_mask": {"kind": "sink", "sink_tokens": 2, "width": 4}})";
// 512 positions: 8 x 8 blocks of 64, 4 x 4 of 128, for the block grid.
constexpr const char* kBlockSparsity =
    R"({"embed_dim": 16, "num_heads": 2, "tgt_len": 512, "src_len": 512, "seed": 4,
        "inputs": {"kind": "sinusoidal", "content_scale": 0.3, "self_attention": true},
        "attn_mask": {"kind": "document", "document_lengths": [200, 120, 192], "causal": true}})";

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

/// Value norms with both appended columns: the zero column's norm is 0 whatever its weight.
/// The head view's state: bias_k and zero keys, a causal mask, token labels.
constexpr const char* kHeadViewJson =
    R"({"embed_dim": 24, "num_heads": 3, "tgt_len": 7, "src_len": 7, "seed": 3,
        "add_bias_kv": true, "add_zero_attn": true,
        "attn_mask": {"kind": "causal", "dtype": "bool", "shape": "2d"},
        "query_labels": ["the", "cat", "sat", "on", "the", "warm", "mat"],
        "key_labels": ["the", "cat", "sat", "on", "the", "warm", "mat"],
        "inputs": {"kind": "sinusoidal", "content_scale": 0.3, "self_attention": true}})";

constexpr const char* kCompareNanJson =
    R"({"embed_dim": 16, "num_heads": 2, "batch_size": 3, "tgt_len": 6, "src_len": 6,
        "need_weights": false, "key_padding_mask": {"valid_lengths": [6, 4, 0]}})";
constexpr const char* kCompareNanB =
    R"({"embed_dim": 16, "num_heads": 2, "batch_size": 3, "tgt_len": 6, "src_len": 6,
        "need_weights": false, "semantics": "1.13",
        "key_padding_mask": {"valid_lengths": [6, 4, 0]}})";

// The text view's states: cross-attention (French queries, English keys, bias_k and zero), and
// a padded batch element of a causal sentence.
constexpr const char* kCrossJson =
    R"({"embed_dim": 24, "num_heads": 3, "tgt_len": 4, "src_len": 7, "seed": 5,
        "add_bias_kv": true, "add_zero_attn": true,
        "query_labels": ["le", "chat", "est", "assis"],
        "key_labels": ["the", "cat", "sat", "on", "the", "warm", "mat"],
        "inputs": {"kind": "random", "scale": 2.0, "self_attention": false}})";
constexpr const char* kPaddedJson =
    R"({"embed_dim": 24, "num_heads": 3, "batch_size": 2, "tgt_len": 8, "src_len": 8, "seed": 3,
        "attn_mask": {"kind": "causal", "dtype": "bool", "shape": "2d"},
        "key_padding_mask": {"valid_lengths": [8, 5], "dtype": "bool"},
        "query_labels": ["the", "cat", "sat", "on", "the", "mat", "<pad>", "<pad>"],
        "key_labels": ["the", "cat", "sat", "on", "the", "mat", "<pad>", "<pad>"],
        "inputs": {"kind": "sinusoidal", "content_scale": 0.3, "self_attention": true}})";

constexpr const char* kValueNormsJson =
    R"({"embed_dim": 16, "num_heads": 4, "tgt_len": 6, "src_len": 6, "seed": 3,
        "add_bias_kv": true, "add_zero_attn": true,
        "attn_mask": {"kind": "causal", "dtype": "bool", "shape": "2d"},
        "inputs": {"kind": "sinusoidal", "content_scale": 0.3, "self_attention": true}})";

// 32768 tokens, causal: over the window's 4 GiB limit, so the reduced view.
constexpr const char* kCausal32k =
    R"({"embed_dim": 64, "num_heads": 4, "tgt_len": 32768, "src_len": 32768, "seed": 1,
        "is_causal": true, "attn_mask": {"kind": "causal", "dtype": "bool", "shape": "2d"},
        "inputs": {"kind": "sinusoidal", "content_scale": 0.3, "self_attention": true}})";

// The workspaces' states: eight heads with bias_k, the zero key and token labels; B of the
// Compare workspace drops the causal mask and the zero key.
constexpr const char* kWorkspaceJson =
    R"({"embed_dim": 32, "num_heads": 8, "tgt_len": 7, "src_len": 7, "seed": 3,
        "add_bias_kv": true, "add_zero_attn": true,
        "attn_mask": {"kind": "causal", "dtype": "bool", "shape": "2d"},
        "query_labels": ["the", "cat", "sat", "on", "the", "warm", "mat"],
        "key_labels": ["the", "cat", "sat", "on", "the", "warm", "mat"],
        "inputs": {"kind": "sinusoidal", "content_scale": 0.3, "self_attention": true}})";
constexpr const char* kWorkspaceB =
    R"({"embed_dim": 32, "num_heads": 8, "tgt_len": 7, "src_len": 7, "seed": 3,
        "add_bias_kv": true,
        "query_labels": ["the", "cat", "sat", "on", "the", "warm", "mat"],
        "key_labels": ["the", "cat", "sat", "on", "the", "warm", "mat"],
        "inputs": {"kind": "sinusoidal", "content_scale": 0.3, "self_attention": true}})";

mhaviz::Config parse(const char* json, const char* name) {
  return mhaviz::io::parse_config_json(std::string_view(json), name);
}

/// Waits until the controller has no computation running and the grid has drawn its picture.
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
      if (!settle(window) ||
          !QTest::qWaitFor(
              [&] { return panel->isUpToDate() && panel->resultB() == computation->result(); },
              kTimeoutMs)) {
        return QStringLiteral("%1: the difference never came").arg(shot.name);
      }
      QTest::qWait(300);
    }
    if (!computation->error().isEmpty()) {
      return QStringLiteral("%1: %2").arg(shot.name, computation->error());
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

bool settle(MainWindow& window) {
  const bool done = QTest::qWaitFor(
      [&window] {
        return !window.computation()->isBusy() && !window.computation()->isMeasuring() &&
               window.computation()->result() != nullptr && !window.grid()->isPreparing();
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

  QList<Shot> shots = {
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
      // Every map needs 0.55 GiB, over a 256 MiB limit: the reduced view (block mean of 6x6
      // cells, the status bar says so), as a 32768-token context under the 4 GiB limit. A band
      // mask of 40 keys each side keeps the weights on a diagonal that the fold must keep.
      {"long_context_reduced",
       R"({"embed_dim": 64, "num_heads": 4, "tgt_len": 3000, "src_len": 3000, "seed": 1,
           "inputs": {"kind": "sinusoidal", "content_scale": 0.3, "self_attention": true},
           "attn_mask": {"kind": "band", "width": 40, "dtype": "bool", "shape": "2d"}})",
       [](ViewOptions& v) { v.autoRange = true; }, false, false, false, false, 256ULL << 20},
      {"long_context_reduced_zh_dark",
       R"({"embed_dim": 64, "num_heads": 4, "tgt_len": 3000, "src_len": 3000, "seed": 1,
           "inputs": {"kind": "sinusoidal", "content_scale": 0.3, "self_attention": true},
           "attn_mask": {"kind": "band", "width": 40, "dtype": "bool", "shape": "2d"}})",
       [](ViewOptions& v) {
         v.autoRange = true;
         v.reduce = mhaviz::ui::Reduce::max;
       },
       true, true, false, false, 256ULL << 20},
      // Zoomed: queries and keys 600..849, computed as exact cells; queries and keys 0..1199,
      // still folded (block max of 5x5 cells into maps of about 250 pixels).
      {"long_context_zoomed_exact",
       R"({"embed_dim": 64, "num_heads": 4, "tgt_len": 3000, "src_len": 3000, "seed": 1,
           "inputs": {"kind": "sinusoidal", "content_scale": 0.3, "self_attention": true},
           "attn_mask": {"kind": "band", "width": 40, "dtype": "bool", "shape": "2d"}})",
       [](ViewOptions& v) { v.autoRange = true; }, false, false, false, false, 256ULL << 20,
       nullptr, {600, 850, 600, 850}},
      {"long_context_zoomed_folded_zh_dark",
       R"({"embed_dim": 64, "num_heads": 4, "tgt_len": 3000, "src_len": 3000, "seed": 1,
           "inputs": {"kind": "sinusoidal", "content_scale": 0.3, "self_attention": true},
           "attn_mask": {"kind": "band", "width": 40, "dtype": "bool", "shape": "2d"}})",
       [](ViewOptions& v) {
         v.autoRange = true;
         v.reduce = mhaviz::ui::Reduce::max;
       },
       true, true, false, false, 256ULL << 20, nullptr, {0, 1200, 0, 1200}},
      // L = S = 32768, causal (E = 64, H = 4: the whole view takes 50 s on two cores): the
      // reduced view (block mean of 64x64 cells) with its default colour range, saved as
      // long_context_32k_causal, then zoomed into queries 8192..8447, keys 8000..8255 as the
      // wheel would: exact cells.
      {.name = "long_context_32k_zoomed",
       .configJson = kCausal32k,
       .view = {},
       .memoryLimit = 4ULL << 30,
       .zoom = {8192, 8448, 8000, 8256},
       .beforeZoom = "long_context_32k_causal"},
      {"dark", nullptr, {}, false, true},
      // The first picture at a small projector's and a full-HD screen's size, light and dark
      // Chinese: how much of the centre the maps cover (tests/ui/test_map_coverage.cpp).
      {.name = "default_1280x720", .configJson = nullptr, .view = {}, .size = QSize(1280, 720)},
      {.name = "default_1280x720_dark_chinese",
       .configJson = nullptr,
       .view = {},
       .chinese = true,
       .dark = true,
       .size = QSize(1280, 720)},
      {.name = "default_1920x1080", .configJson = nullptr, .view = {}, .size = QSize(1920, 1080)},
      {.name = "default_1920x1080_dark_chinese",
       .configJson = nullptr,
       .view = {},
       .chinese = true,
       .dark = true,
       .size = QSize(1920, 1080)},
      // Presentation mode at 1280x720 on the value-norms step (its colour scale's long title).
      {.name = "presentation_value_norms_1280x720",
       .configJson = kValueNormsJson,
       .view = [](ViewOptions& v) { v.stage = Stage::value_norms; },
       .presentation = true,
       .size = QSize(1280, 720)},
      // Presentation mode at 1280x720 with eight heads, bias_k and the zero key: every map on
      // the screen, none scrolled off.
      {.name = "presentation_8_heads_1280x720",
       .configJson = kWorkspaceJson,
       .view = {},
       .presentation = true,
       .size = QSize(1280, 720)},
      {"chinese", nullptr, {}, true},
      {"value_norms", kValueNormsJson, [](ViewOptions& v) { v.stage = Stage::value_norms; }},
      {"value_zeroing", kValueNormsJson, [](ViewOptions& v) { v.stage = Stage::value_zeroing; }},
      {"sink_scores", kValueNormsJson, [](ViewOptions& v) { v.stage = Stage::sink_scores; }},
      {"sink_scores_dark_chinese", kValueNormsJson,
       [](ViewOptions& v) { v.stage = Stage::sink_scores; }, true, true},
      {"value_norms_dark_chinese", kValueNormsJson,
       [](ViewOptions& v) { v.stage = Stage::value_norms; }, true, true},
      {"head_measures_weights", kValueNormsJson, {}, false, true},
      // Patterns from current practice (docs/config.md), each with the mask editor in front.
      {"pattern_prefix_lm", kPrefixLm, {}, false, false, false, true},
      {"pattern_document", kDocument, {}, false, false, false, true},
      {"pattern_dilated",
       R"({"embed_dim": 16, "num_heads": 2, "tgt_len": 16, "src_len": 16, "seed": 4,
           "inputs": {"kind": "sinusoidal", "content_scale": 0.3, "self_attention": true},
           "attn_mask": {"kind": "dilated", "width": 3, "dilation": 3, "dtype": "float",
                         "shape": "3d"}})",
       [](ViewOptions& v) { v.stage = Stage::mask; }, false, false, false, true},
      {"pattern_sink", kSink, {}, false, false, false, true},
      {"pattern_sink_dark_zh", kSink, {}, true, true, false, true},
      {"pattern_softcap",
       R"({"embed_dim": 16, "num_heads": 2, "tgt_len": 8, "src_len": 8, "seed": 6,
           "attn_logit_softcapping": 1.0, "average_attn_weights": false,
           "inputs": {"kind": "random", "scale": 3.0, "self_attention": true},
           "attn_mask": {"kind": "causal"}})",
       [](ViewOptions& v) { v.stage = Stage::capped_scores; }},
      {"block_sparsity", kBlockSparsity, {}, false, false, false, true},
      {"block_sparsity_dark", kBlockSparsity, {}, false, true, false, true},
      {"block_sparsity_zh", kBlockSparsity, {}, true, false, false, true},
      {"compare",
       R"({"embed_dim": 16, "num_heads": 2, "tgt_len": 6, "src_len": 6, "seed": 3,
           "add_bias_kv": true,
           "inputs": {"kind": "sinusoidal", "content_scale": 0.3, "self_attention": true}})",
       {},
       false,
       false,
       false,
       false,
       0,
       R"({"embed_dim": 16, "num_heads": 2, "tgt_len": 6, "src_len": 6, "seed": 3,
           "add_zero_attn": true,
           "inputs": {"kind": "sinusoidal", "content_scale": 0.3, "self_attention": true},
           "attn_mask": {"kind": "causal", "dtype": "bool", "shape": "2d"}})"},
      {"compare_dark",
       R"({"embed_dim": 16, "num_heads": 2, "tgt_len": 6, "src_len": 6, "seed": 3,
           "add_bias_kv": true,
           "inputs": {"kind": "sinusoidal", "content_scale": 0.3, "self_attention": true}})",
       {},
       false,
       true,
       false,
       false,
       0,
       R"({"embed_dim": 16, "num_heads": 2, "tgt_len": 6, "src_len": 6, "seed": 3,
           "add_zero_attn": true,
           "inputs": {"kind": "sinusoidal", "content_scale": 0.3, "self_attention": true},
           "attn_mask": {"kind": "causal", "dtype": "bool", "shape": "2d"}})"},
      {"compare_chinese",
       R"({"embed_dim": 16, "num_heads": 2, "tgt_len": 6, "src_len": 6, "seed": 3,
           "add_bias_kv": true,
           "inputs": {"kind": "sinusoidal", "content_scale": 0.3, "self_attention": true}})",
       {},
       true,
       false,
       false,
       false,
       0,
       R"({"embed_dim": 16, "num_heads": 2, "tgt_len": 6, "src_len": 6, "seed": 3,
           "add_zero_attn": true,
           "inputs": {"kind": "sinusoidal", "content_scale": 0.3, "self_attention": true},
           "attn_mask": {"kind": "causal", "dtype": "bool", "shape": "2d"}})"},
      // A = 2.x, B = 1.13, need_weights=False, batch element 2 fully padded: B - A is NaN and
      // the line above the grids says where it comes from.
      {.name = "compare_nan",
       .configJson = kCompareNanJson,
       .view = [](ViewOptions& v) { v.batch = 2; },
       .compareB = kCompareNanB},
      {.name = "compare_nan_dark_chinese",
       .configJson = kCompareNanJson,
       .view = [](ViewOptions& v) { v.batch = 2; },
       .chinese = true,
       .dark = true,
       .compareB = kCompareNanB},
      {.name = "head_view", .configJson = kHeadViewJson, .view = {}, .headView = true},
      {.name = "head_view_hover",
       .configJson = kHeadViewJson,
       .view = {},
       .headView = true,
       .headQuery = 5},
      {.name = "head_view_dark",
       .configJson = kHeadViewJson,
       .view = {},
       .dark = true,
       .headView = true,
       .headQuery = 2},
      {.name = "head_view_chinese",
       .configJson = kHeadViewJson,
       .view = {},
       .chinese = true,
       .headView = true,
       .headQuery = 2},
      {.name = "text_view_cross",
       .configJson = kCrossJson,
       .view = {},
       .textView = true,
       .textQuery = 1},
      {.name = "text_view_cross_dark",
       .configJson = kCrossJson,
       .view = {},
       .dark = true,
       .textView = true,
       .textQuery = 1},
      {.name = "text_view_cross_chinese",
       .configJson = kCrossJson,
       .view = {},
       .chinese = true,
       .textView = true,
       .textQuery = 1},
      {.name = "text_view_padded",
       .configJson = kPaddedJson,
       .view = [](ViewOptions& v) { v.batch = 1; },
       .headView = true,
       .textView = true,
       .textQuery = 4},
      {.name = "text_view_padded_dark",
       .configJson = kPaddedJson,
       .view = [](ViewOptions& v) { v.batch = 1; },
       .dark = true,
       .headView = true,
       .textView = true,
       .textQuery = 4},
      {.name = "text_view_padded_chinese",
       .configJson = kPaddedJson,
       .view = [](ViewOptions& v) { v.batch = 1; },
       .chinese = true,
       .headView = true,
       .textView = true,
       .textQuery = 4},
      {.name = "model_reverse", .configJson = nullptr, .view = {}, .model = "reverse"},
      {.name = "model_copy_dark", .configJson = nullptr, .view = {}, .dark = true, .model = "copy"},
      {.name = "model_reverse_chinese",
       .configJson = nullptr,
       .view = {},
       .chinese = true,
       .model = "reverse"},
      {.name = "model_rollout",
       .configJson = nullptr,
       .view = {},
       .model = "reverse",
       .modelShows = Shot::ModelShows::rollout},
      {.name = "model_flow",
       .configJson = nullptr,
       .view = {},
       .model = "copy",
       .modelShows = Shot::ModelShows::flow},
      {.name = "model_sink_rate", .configJson = nullptr, .view = {}, .model = "copy"},
      {.name = "model_step",
       .configJson = nullptr,
       .view = {},
       .model = "generate",
       .modelShows = Shot::ModelShows::step},
      // The text view follows the step slider: what the newest token (step 3) attended to.
      {.name = "model_step_text",
       .configJson = nullptr,
       .view = {},
       .model = "generate",
       .modelShows = Shot::ModelShows::step,
       .textView = true},
      {.name = "model_step_chinese_dark",
       .configJson = nullptr,
       .view = {},
       .chinese = true,
       .dark = true,
       .model = "generate",
       .modelShows = Shot::ModelShows::step},
      {.name = "model_layer",
       .configJson = nullptr,
       .view = {},
       .model = "reverse",
       .modelShows = Shot::ModelShows::layer},
      {.name = "model_after_layer",
       .configJson = nullptr,
       .view = {},
       .model = "reverse",
       .modelShows = Shot::ModelShows::layerThenBack},
      {.name = "model_selected",
       .configJson = nullptr,
       .view = {},
       .model = "reverse",
       .modelShows = Shot::ModelShows::selected,
       .headView = true,
       .textView = true},
      {.name = "model_selected_dark_chinese",
       .configJson = nullptr,
       .view = {},
       .chinese = true,
       .dark = true,
       .model = "reverse",
       .modelShows = Shot::ModelShows::selected,
       .headView = true,
       .textView = true},
      // The workspaces (issue 40) at 1280x720, 1600x1000 and 1920x1080, some dark and Chinese.
      {.name = "ws_explore_1280x720",
       .configJson = kWorkspaceJson,
       .view = {},
       .size = QSize(1280, 720),
       .workspace = mhaviz::ui::kExplore},
      {.name = "ws_tokens_1280x720",
       .configJson = kWorkspaceJson,
       .view = {},
       .headView = true,
       .headQuery = 5,
       .size = QSize(1280, 720),
       .textView = true,
       .textQuery = 5},
      // The Image view of the bundled vision transformer (squares): the class token's attention
      // over the first image, the heads of the layer beside it.
      {.name = "image_view",
       .configJson = nullptr,
       .view = {},
       .model = "squares",
       .modelShows = Shot::ModelShows::image},
      {.name = "image_view_dark",
       .configJson = nullptr,
       .view = {},
       .dark = true,
       .model = "squares",
       .modelShows = Shot::ModelShows::image},
      {.name = "image_view_chinese",
       .configJson = nullptr,
       .view = {},
       .chinese = true,
       .model = "squares",
       .modelShows = Shot::ModelShows::image},
      {.name = "image_view_1280x720",
       .configJson = nullptr,
       .view = {},
       .model = "squares",
       .modelShows = Shot::ModelShows::image,
       .size = QSize(1280, 720)},
      {.name = "ws_compare_1280x720",
       .configJson = kWorkspaceJson,
       .view = {},
       .compareB = kWorkspaceB,
       .size = QSize(1280, 720)},
      {.name = "ws_model_1280x720",
       .configJson = nullptr,
       .view = {},
       .model = "reverse",
       .modelShows = Shot::ModelShows::selected,
       .size = QSize(1280, 720)},
      {.name = "ws_teach_1280x720",
       .configJson = kValueNormsJson,
       .view = [](ViewOptions& v) { v.stage = Stage::value_norms; },
       .size = QSize(1280, 720),
       .workspace = mhaviz::ui::kTeach},
      {.name = "ws_explore",
       .configJson = kWorkspaceJson,
       .view = {},
       .workspace = mhaviz::ui::kExplore},
      {.name = "ws_tokens",
       .configJson = kWorkspaceJson,
       .view = {},
       .headView = true,
       .headQuery = 5,
       .textView = true,
       .textQuery = 5},
      {.name = "ws_compare",
       .configJson = kWorkspaceJson,
       .view = {},
       .compareB = kWorkspaceB},
      {.name = "ws_model",
       .configJson = nullptr,
       .view = {},
       .model = "reverse",
       .modelShows = Shot::ModelShows::selected},
      {.name = "ws_teach",
       .configJson = kValueNormsJson,
       .view = [](ViewOptions& v) { v.stage = Stage::value_norms; },
       .workspace = mhaviz::ui::kTeach},
      {.name = "ws_explore_1920x1080",
       .configJson = kWorkspaceJson,
       .view = {},
       .size = QSize(1920, 1080),
       .workspace = mhaviz::ui::kExplore},
      {.name = "ws_tokens_1920x1080",
       .configJson = kWorkspaceJson,
       .view = {},
       .headView = true,
       .headQuery = 5,
       .size = QSize(1920, 1080),
       .textView = true,
       .textQuery = 5},
      {.name = "ws_compare_1920x1080",
       .configJson = kWorkspaceJson,
       .view = {},
       .compareB = kWorkspaceB,
       .size = QSize(1920, 1080)},
      {.name = "ws_model_1920x1080",
       .configJson = nullptr,
       .view = {},
       .model = "reverse",
       .modelShows = Shot::ModelShows::selected,
       .size = QSize(1920, 1080)},
      {.name = "ws_teach_1920x1080",
       .configJson = kValueNormsJson,
       .view = [](ViewOptions& v) { v.stage = Stage::value_norms; },
       .size = QSize(1920, 1080),
       .workspace = mhaviz::ui::kTeach},
      {.name = "ws_explore_chinese_dark",
       .configJson = kWorkspaceJson,
       .view = {},
       .chinese = true,
       .dark = true,
       .workspace = mhaviz::ui::kExplore},
      {.name = "ws_tokens_chinese",
       .configJson = kWorkspaceJson,
       .view = {},
       .chinese = true,
       .headView = true,
       .headQuery = 5,
       .textView = true,
       .textQuery = 5},
  };

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
