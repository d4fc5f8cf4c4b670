// The head view in the window: shown from View > Head view, it follows the document's result
// and the grid's view (batch element, solo head), hovering a token keeps only its lines, the
// coverage slider hides lines and says how many, and its export writes the picture shown.

#include <QAction>
#include <QColor>
#include <QDockWidget>
#include <QImage>
#include <QLabel>
#include <QMenuBar>
#include <QSignalSpy>
#include <QSlider>
#include <QTemporaryDir>
#include <QTest>
#include <QToolBar>
#include <array>
#include <cmath>

#include "compute/computation.hpp"
#include "document/document.hpp"
#include "mhaviz/core/analysis/measures.hpp"
#include "mhaviz/core/spec/config.hpp"
#include "prompted_window.hpp"
#include "render/heatmap_grid.hpp"
#include "tokens/head_view.hpp"
#include "tokens/head_view_picture.hpp"
#include "window/main_window.hpp"

using mhaviz::ui::HeadLine;
using mhaviz::ui::HeadView;
using mhaviz::ui::MainWindow;
using mhaviz::ui::TokenHit;

namespace {
constexpr int kTimeout = 30000;
}  // namespace

class TestHeadView : public QObject {
  Q_OBJECT

 private slots:
  // Issue 40: with 8 heads, heads 0 and 7 shared a colour. Sixteen heads have colours of their
  // own, told apart with normal vision and with simulated protanopia and deuteranopia (Viénot,
  // Brettel and Mollon 1999): CIELAB distance at least 12 between any two; past 16 they repeat.
  void sixteenHeadsHaveDistinctColourBlindSafeColours() {
    using mhaviz::ui::headColor;
    using mhaviz::ui::kDistinctHeadColors;
    const auto linear = [](double c) {
      c /= 255;
      return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
    };
    const auto lab = [](std::array<double, 3> rgb) {  // linear sRGB -> CIELAB (D65)
      const double x = (0.4124 * rgb[0] + 0.3576 * rgb[1] + 0.1805 * rgb[2]) / 0.95047;
      const double y = 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2];
      const double z = (0.0193 * rgb[0] + 0.1192 * rgb[1] + 0.9505 * rgb[2]) / 1.08883;
      const auto f = [](double t) { return t > 0.008856 ? std::cbrt(t) : 7.787 * t + 16.0 / 116; };
      return std::array<double, 3>{116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))};
    };
    using Matrix = std::array<std::array<double, 3>, 3>;
    const Matrix normal = {{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}};
    const Matrix protan = {{{0.11238, 0.88762, 0}, {0.11238, 0.88762, 0}, {0.00401, -0.00401, 1}}};
    const Matrix deutan = {{{0.29275, 0.70725, 0}, {0.29275, 0.70725, 0}, {-0.02234, 0.02234, 1}}};
    for (const Matrix& seen : {normal, protan, deutan}) {
      const auto shown = [&](const QColor& c) {
        const std::array<double, 3> l = {linear(c.red()), linear(c.green()), linear(c.blue())};
        std::array<double, 3> out{};
        for (int i = 0; i < 3; ++i) {
          for (int j = 0; j < 3; ++j) out[i] += seen[i][j] * l[j];
          out[i] = std::clamp(out[i], 0.0, 1.0);
        }
        return lab(out);
      };
      for (int a = 0; a < kDistinctHeadColors; ++a) {
        for (int b = a + 1; b < kDistinctHeadColors; ++b) {
          const auto p = shown(headColor(a));
          const auto q = shown(headColor(b));
          const double distance = std::hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
          QVERIFY2(distance >= 12,
                   qPrintable(QStringLiteral("heads %1 and %2: %3").arg(a).arg(b).arg(distance)));
        }
      }
    }
    QCOMPARE(headColor(kDistinctHeadColors), headColor(0));  // the stated rule past 16
    QCOMPARE(headColor(kDistinctHeadColors + 7), headColor(7));
  }

  void initTestCase() { mhaviz::ui::testing::isolateSettings("mhaviz-head-view-tests"); }

  void init() {
    m_window = new MainWindow;
    m_window->resize(1400, 900);
    m_window->show();
    QVERIFY(idle());
    mhaviz::Config config = m_window->document()->config();
    config.embed_dim = 8;
    config.num_heads = 2;
    config.tgt_len = 4;
    config.src_len = 4;
    config.add_bias_kv = true;
    config.add_zero_attn = true;
    config.query_labels = {"the", "cat", "sat", "down"};
    config.key_labels = config.query_labels;
    m_window->document()->changeConfig(config, QStringLiteral("test"));
    QVERIFY(idle());
    QVERIFY(m_window->document()->computed().result != nullptr);
  }

  void cleanup() {
    delete m_window;
    m_window = nullptr;
  }

  // View > Head view and the toolbar's toggle are one action; the dock starts hidden.
  void shownFromTheViewMenuAndTheToolbar() {
    auto* dock = m_window->headViewDock();
    QVERIFY(dock != nullptr);
    QVERIFY(!dock->isVisible());
    auto* toolbar = m_window->viewToolBar();
    QVERIFY(toolbar != nullptr);
    QAction* toggle = dock->toggleViewAction();
    QVERIFY(toolbar->actions().contains(toggle));
    bool inViewMenu = false;
    for (QAction* menu : m_window->menuBar()->actions()) {
      if (menu->menu() != nullptr && menu->menu()->actions().contains(toggle)) inViewMenu = true;
    }
    QVERIFY(inViewMenu);
    toggle->trigger();
    QVERIFY(QTest::qWaitFor([&] { return dock->isVisible(); }, kTimeout));
    HeadView* view = m_window->headView();
    QVERIFY(drawn(view));
    QVERIFY(view->message().isEmpty());
    QVERIFY(!view->lines().lines.empty());
    // The configuration's labels, the appended keys at the end.
    QCOMPARE(view->lines().queries[1].label, QStringLiteral("cat"));
    QCOMPARE(view->lines().keys.size(), std::size_t{6});
    QCOMPARE(view->lines().keys[4].label, QStringLiteral("bias_k"));
    QCOMPARE(view->lines().keys[5].label, QStringLiteral("zero"));
  }

  // The grid's solo head and batch element are the head view's.
  void followsTheGridsHeadSelection() {
    HeadView* view = show();
    QCOMPARE(view->heads(), (std::vector<int>{0, 1}));
    auto v = m_window->document()->view();
    v.soloHead = 1;
    m_window->document()->setView(v);
    QVERIFY(drawn(view));
    QCOMPARE(view->heads(), std::vector<int>{1});
    for (const HeadLine& l : view->lines().lines) QCOMPARE(l.head, 1);
    // Head chips are overridden while the grid shows one head.
    view->setHeadChosen(1, false);
    QCOMPARE(view->heads(), std::vector<int>{1});
    v.soloHead = -1;
    m_window->document()->setView(v);
    QVERIFY(drawn(view));
    QCOMPARE(view->heads(), std::vector<int>{0});  // head 1's chip is now off
    view->setHeadChosen(1, true);
    QCOMPARE(view->heads(), (std::vector<int>{0, 1}));
    // A new result (another seed) is drawn at once: the lines carry its weights.
    mhaviz::Config config = m_window->document()->config();
    config.seed = config.seed + 1;
    m_window->document()->changeConfig(config, QStringLiteral("seed"));
    QVERIFY(idle());
    QVERIFY(drawn(view));
    const auto result = m_window->document()->computed().result;
    QVERIFY(!view->lines().lines.empty());
    for (const HeadLine& l : view->lines().lines) {
      QCOMPARE(l.weight,
               result->weights.value(((0 * 2 + l.head) * 4 + l.query) * result->Sx + l.key));
    }
  }

  // The batch element and the stage are the grid's: batch 1's weights, the value norms once
  // the measures are there, the weights before dropout.
  void followsTheGridsBatchElementAndStage() {
    mhaviz::Config config = m_window->document()->config();
    config.batch_size = 2;
    config.training = true;
    config.dropout = 0.5;
    m_window->document()->changeConfig(config, QStringLiteral("batch"));
    QVERIFY(idle());
    HeadView* view = show();
    auto v = m_window->document()->view();
    v.batch = 1;
    m_window->document()->setView(v);
    QVERIFY(drawn(view));
    auto result = m_window->document()->computed().result;
    const auto at = [&](const mhaviz::Tensor& t, const HeadLine& l) {
      return t.value(((1 * 2 + l.head) * 4 + l.query) * result->Sx + l.key);
    };
    QVERIFY(!view->lines().lines.empty());
    for (const HeadLine& l : view->lines().lines) QCOMPARE(l.weight, at(result->weights, l));
    // Batch element 0 differs: the lines came from element 1.
    bool differs = false;
    for (const HeadLine& l : view->lines().lines) {
      differs |=
          l.weight != result->weights.value(((0 * 2 + l.head) * 4 + l.query) * result->Sx + l.key);
    }
    QVERIFY(differs);
    v.stage = mhaviz::ui::Stage::weights_before_dropout;
    m_window->document()->setView(v);
    QVERIFY(drawn(view));
    QVERIFY(result->weights_before_dropout.has_value());
    for (const HeadLine& l : view->lines().lines) {
      QCOMPARE(l.weight, at(*result->weights_before_dropout, l));
    }
    v.stage = mhaviz::ui::Stage::value_norms;
    m_window->document()->setView(v);
    QVERIFY(idle());
    QVERIFY(drawn(view));
    result = m_window->document()->computed().result;
    const auto measures = m_window->document()->computed().measures();
    QVERIFY(measures && measures->norms);
    QVERIFY(!view->lines().lines.empty());
    for (const HeadLine& l : view->lines().lines) {
      QCOMPARE(l.weight, at(measures->norms->per_head, l));
    }
  }

  // Hovering a query keeps its lines and writes the weights at the keys; a key, the lines
  // into it; the bias_k row says it has no query row.
  void hoverKeepsOneTokensLines() {
    HeadView* view = show();
    QSignalSpy hovered(view, &HeadView::hovered);
    QWidget* canvas = view->canvas();
    const QPointF query = view->lines().queries[2].box.center();
    QTest::mouseMove(canvas, query.toPoint());
    QVERIFY(QTest::qWaitFor([&] { return view->choice().query == 2; }, kTimeout));
    QVERIFY(drawn(view));
    QVERIFY(!view->lines().lines.empty());
    for (const HeadLine& l : view->lines().lines) QCOMPARE(l.query, 2);
    QVERIFY(!view->lines().notes.empty());
    QVERIFY(view->lines().notesAtKeys);
    QVERIFY(!hovered.isEmpty());
    QVERIFY(hovered.last().at(0).toString().contains(QStringLiteral("sat")));

    const QPointF bias = view->lines().keys[4].box.center();
    QTest::mouseMove(canvas, bias.toPoint());
    QVERIFY(QTest::qWaitFor([&] { return view->choice().key == 4; }, kTimeout));
    QVERIFY(drawn(view));
    for (const HeadLine& l : view->lines().lines) QCOMPARE(l.key, 4);
    QCOMPARE(view->lines().lines.size(), std::size_t{8});  // every query of both heads
    QVERIFY(hovered.last().at(0).toString().contains(QStringLiteral("no query row")));
    view->setHover({});
    QVERIFY(drawn(view));
    QCOMPARE(view->lines().lines.size() > 8, true);
  }

  // A click pins a token: it stays shown when the pointer leaves (and in an export); hovering
  // another shows that one meanwhile; a second click or Esc releases it.
  void aClickPinsAToken() {
    HeadView* view = show();
    QWidget* canvas = view->canvas();
    const QPoint query = view->lines().queries[1].box.center().toPoint();
    QTest::mouseMove(canvas, query);
    QTest::mouseClick(canvas, Qt::LeftButton, {}, query);
    QCOMPARE(view->pinned(), (TokenHit{TokenHit::Side::query, 1}));
    view->setHover({});  // the pointer leaves
    QVERIFY(drawn(view));
    QCOMPARE(view->choice().query, 1);
    QVERIFY(!view->lines().lines.empty());
    for (const HeadLine& l : view->lines().lines) QCOMPARE(l.query, 1);
    auto* pin = view->pinLine();
    QVERIFY(pin != nullptr && pin->isVisibleTo(view));
    // Another token hovered is shown while the pointer is over it.
    view->setHover({TokenHit::Side::key, 0});
    QVERIFY(drawn(view));
    QCOMPARE(view->choice().key, 0);
    QCOMPARE(view->choice().query, -1);
    view->setHover({});
    QVERIFY(drawn(view));
    QCOMPARE(view->choice().query, 1);
    // Clicked again: released, every line back.
    QTest::mouseClick(canvas, Qt::LeftButton, {}, query);
    QCOMPARE(view->pinned(), TokenHit{});
    view->setHover({});
    QVERIFY(drawn(view));
    QCOMPARE(view->choice().query, -1);
    QVERIFY(!pin->isVisibleTo(view));
    // Esc releases a pin too.
    view->setPinned({TokenHit::Side::key, 2});
    QCOMPARE(view->choice().key, 2);
    QTest::keyClick(canvas, Qt::Key_Escape);
    QCOMPARE(view->pinned(), TokenHit{});
  }

  // The slider hides the weak lines and the label says how many.
  void coverageHidesLinesAndCountsThem() {
    HeadView* view = show();
    const std::size_t all = view->lines().lines.size();
    QVERIFY(view->hiddenText().isEmpty());
    auto* slider = view->coverageSlider();
    QVERIFY(slider != nullptr);
    QCOMPARE(slider->value(), 100);
    slider->setValue(50);
    QCOMPARE(view->choice().coverage, 0.5);
    QVERIFY(drawn(view));
    const std::size_t shown = view->lines().lines.size();
    QVERIFY(shown < all);
    QCOMPARE(static_cast<std::size_t>(view->lines().hiddenLines), all - shown);
    QVERIFY(view->hiddenText().contains(QString::number(all - shown)));
  }

  // The export writes the picture as shown: with a query hovered, its strongest line is drawn
  // in its head's colour.
  void exportDrawsTheStrongestLineInItsHeadsColour() {
    HeadView* view = show();
    auto v = m_window->document()->view();
    v.soloHead = 0;
    m_window->document()->setView(v);
    QCoreApplication::processEvents();
    view->setHover({TokenHit::Side::query, 3});
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("head.png"));
    mhaviz::ui::ExportOptions options;
    options.width = 800;
    options.height = 500;
    QCOMPARE(view->exportTo(path, options), QString());
    const QImage image(path);
    QCOMPARE(image.width(), 800);
    // The same layout as the export's: recomputed here for its geometry.
    const auto result = m_window->document()->computed().result;
    const auto fitted =
        mhaviz::ui::fitView(m_window->document()->view(), mhaviz::ui::viewBounds(*result));
    const auto lines =
        mhaviz::ui::headViewPictureLayout(*result, fitted, view->choice(), options).lines;
    QVERIFY(!lines.lines.empty());
    const HeadLine& strongest = lines.lines.back();
    const QPointF a = lines.queries[static_cast<std::size_t>(strongest.query)].anchor;
    const QPointF b = lines.keys[static_cast<std::size_t>(strongest.key)].anchor;
    const QColor pixel = image.pixelColor(((a + b) / 2).toPoint());
    const QColor head = mhaviz::ui::headColor(0);
    // Over white with opacity α: each channel is 255 - α (255 - c).
    const double alpha = strongest.alpha;
    QVERIFY2(std::abs(pixel.red() - (255 - alpha * (255 - head.red()))) < 40 &&
                 std::abs(pixel.blue() - (255 - alpha * (255 - head.blue()))) < 40,
             qPrintable(pixel.name()));
  }

 private:
  HeadView* show() {
    auto* dock = m_window->headViewDock();
    dock->toggleViewAction()->trigger();
    if (!QTest::qWaitFor([&] { return dock->isVisible(); }, kTimeout)) qWarning("not shown");
    QCoreApplication::processEvents();
    if (!drawn(m_window->headView())) qWarning("not drawn");
    return m_window->headView();
  }
  // Waits until the head view's picture is the one asked for last.
  static bool drawn(HeadView* view) {
    return QTest::qWaitFor([view] { return !view->isDrawing(); }, kTimeout);
  }
  [[nodiscard]] bool idle() const {
    const bool done = QTest::qWaitFor(
        [this] {
          return !m_window->document()->computed().busy &&
                 !m_window->document()->computed().measuring && !m_window->grid()->isPreparing();
        },
        kTimeout);
    QCoreApplication::processEvents();
    return done;
  }

  MainWindow* m_window = nullptr;
};

QTEST_MAIN(TestHeadView)
#include "test_head_view.moc"
