// The text view in the window: shown from View > Text view (and the toolbar), it follows the
// document's result and the grid's view (batch element, stage, solo head), shades the keys
// by the weights of the query hovered or pinned (else the last), shows the bias_k / zero chips,
// cross-attention as two texts, and a padded batch element's padded keys as masked.

#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QMenuBar>
#include <QSignalSpy>
#include <QTest>
#include <QToolBar>
#include <cmath>

#include "compute/computation.hpp"
#include "document/document.hpp"
#include "mhaviz/core/analysis/measures.hpp"
#include "mhaviz/core/spec/config.hpp"
#include "prompted_window.hpp"
#include "render/heatmap_grid.hpp"
#include "tokens/text_view.hpp"
#include "window/main_window.hpp"

using mhaviz::ui::MainWindow;
using mhaviz::ui::TextHit;
using mhaviz::ui::TextView;

namespace {
constexpr int kTimeout = 30000;
}  // namespace

class TestTextView : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { mhaviz::ui::testing::isolateSettings("mhaviz-text-view-tests"); }

  void init() {
    m_window = new MainWindow;
    m_window->resize(1400, 900);
    m_window->show();
    QVERIFY(idle());
    mhaviz::Config config = m_window->document()->config();
    config.embed_dim = 8;
    config.num_heads = 2;
    config.batch_size = 2;
    config.tgt_len = 4;
    config.src_len = 4;
    config.add_bias_kv = true;
    config.add_zero_attn = true;
    config.query_labels = {"the", "cat", "sat", "down"};
    config.key_labels = config.query_labels;
    // Batch element 1 is padded after two keys.
    config.key_padding_spec.kind = mhaviz::gen::PaddingKind::lengths;
    config.key_padding_spec.valid_lengths = {4, 2};
    m_window->document()->changeConfig(config, QStringLiteral("test"));
    QVERIFY(idle());
  }

  void cleanup() {
    delete m_window;
    m_window = nullptr;
  }

  // View > Text view and the toolbar's toggle are one action; the dock starts hidden; shown,
  // it is the configuration's sentence with the bias_k and zero chips at the end, shaded by
  // the last query's weights.
  void shownFromTheViewMenuAndTheToolbar() {
    auto* dock = m_window->textViewDock();
    QVERIFY(dock != nullptr);
    QVERIFY(!dock->isVisible());
    QAction* toggle = dock->toggleViewAction();
    auto* toolbar = m_window->viewToolBar();
    QVERIFY(toolbar->actions().contains(toggle));
    bool inViewMenu = false;
    for (QAction* menu : m_window->menuBar()->actions()) {
      if (menu->menu() != nullptr && menu->menu()->actions().contains(toggle)) inViewMenu = true;
    }
    QVERIFY(inViewMenu);
    TextView* view = show();
    QVERIFY(view->message().isEmpty());
    const auto& shades = view->shades();
    QVERIFY(shades.queries.empty());  // self-attention: one text
    QCOMPARE(shades.keys.size(), std::size_t{6});
    QCOMPARE(shades.keys[1].label, QStringLiteral("cat"));
    QCOMPARE(shades.keys[4].kind, mhaviz::KeyKind::bias_k);
    QVERIFY(shades.keys[4].text.startsWith(QStringLiteral("bias_k 0.")));
    QCOMPARE(shades.keys[5].kind, mhaviz::KeyKind::zero);
    QCOMPARE(shades.query, 3);  // none hovered: the last query
    QVERIFY(view->caption().contains(QStringLiteral("down")));
  }

  // The shades are the weights of the batch element and head the grid shows (the average
  // otherwise); the padded batch element's padded keys are masked; the value norms stage shades
  // by the norms.
  void followsBatchElementStageAndHead() {
    TextView* view = show();
    auto result = m_window->document()->computed().result;
    const auto weight = [&](int n, int h, int i, int j) {
      return result->weights.value(((n * 2 + h) * 4 + i) * 6 + j);
    };
    for (int j = 0; j < 6; ++j) {
      const double average = (weight(0, 0, 3, j) + weight(0, 1, 3, j)) / 2;
      QVERIFY(std::abs(view->shades().keys[static_cast<std::size_t>(j)].weight - average) < 1e-9);
    }
    auto v = m_window->document()->view();
    v.batch = 1;
    v.soloHead = 1;
    m_window->document()->setView(v);
    QCoreApplication::processEvents();
    QCOMPARE(view->shownMap(), 1);
    auto* heads = view->headBox();
    QVERIFY(!heads->isEnabled());  // the grid's solo head wins
    for (int j = 0; j < 6; ++j) {
      const auto& k = view->shades().keys[static_cast<std::size_t>(j)];
      QCOMPARE(k.weight, weight(1, 1, 3, j));
      QCOMPARE(k.masked, j == 2 || j == 3);  // padded after two keys
    }
    QCOMPARE(view->shades().keys[2].shade, 0.0);
    // The value norms (computed after the picture): the shades follow them.
    v.stage = mhaviz::ui::Stage::value_norms;
    m_window->document()->setView(v);
    QVERIFY(idle());
    result = m_window->document()->computed().result;
    const auto measures = m_window->document()->computed().measures();
    QVERIFY(measures && measures->norms);
    const auto& norms = measures->norms->per_head;
    for (int j = 0; j < 6; ++j) {
      QCOMPARE(view->shades().keys[static_cast<std::size_t>(j)].weight,
               norms.value(((1 * 2 + 1) * 4 + 3) * 6 + j));
    }
    QVERIFY(view->caption().contains(mhaviz::ui::shownStageName(mhaviz::ui::Stage::value_norms)));
    // Back to all heads: the chooser is free again and picks a head.
    v.stage = mhaviz::ui::Stage::weights;
    v.soloHead = -1;
    m_window->document()->setView(v);
    QCoreApplication::processEvents();
    QVERIFY(heads->isEnabled());
    view->setHead(0);
    QCOMPARE(view->shownMap(), 0);
    QCOMPARE(view->shades().keys[0].weight, weight(1, 0, 3, 0));
  }

  // Hovering a token makes it the query; a click pins it (shown after the pointer leaves), a
  // second click or Esc releases it; a bias_k chip is no query and says so.
  void hoverAndPin() {
    TextView* view = show();
    QSignalSpy hovered(view, &TextView::hovered);
    QWidget* canvas = view->canvas();
    const QPoint sat = view->shades().keys[2].box.center().toPoint() + QPoint(8, 0);
    QTest::mouseMove(canvas, sat);
    QVERIFY(QTest::qWaitFor([&] { return view->shades().query == 2; }, kTimeout));
    QVERIFY(view->caption().contains(QStringLiteral("sat")));
    QTest::mouseClick(canvas, Qt::LeftButton, {}, sat);
    QCOMPARE(view->pinnedQuery(), 2);
    view->setHover({});
    QCOMPARE(view->shades().query, 2);
    QCOMPARE(view->choice().query, 2);
    auto* pin = view->pinLine();
    QVERIFY(pin->isVisibleTo(view));
    view->setHover({TextHit::Side::key, 4});
    QCOMPARE(view->shades().query, 2);  // bias_k has no query row: the pin stays
    QVERIFY(hovered.last().at(0).toString().contains(QStringLiteral("no query row")));
    view->setHover({});
    QTest::mouseClick(canvas, Qt::LeftButton, {}, sat);
    QCOMPARE(view->pinnedQuery(), -1);
    view->setHover({});
    QCOMPARE(view->shades().query, 3);
    view->setPinnedQuery(1);
    QTest::keyClick(canvas, Qt::Key_Escape);
    QCOMPARE(view->pinnedQuery(), -1);
  }

  // Cross-attention (L != S): the queries as a text of their own above the keys.
  void crossAttentionShowsTheQueriesAbove() {
    mhaviz::Config config = m_window->document()->config();
    config.tgt_len = 3;
    config.query_labels = {"le", "chat", "dort"};
    config.key_padding_spec = {};
    m_window->document()->changeConfig(config, QStringLiteral("cross"));
    QVERIFY(idle());
    TextView* view = show();
    const auto& shades = view->shades();
    QCOMPARE(shades.queries.size(), std::size_t{3});
    QCOMPARE(shades.queries[1].label, QStringLiteral("chat"));
    QCOMPARE(shades.keys.size(), std::size_t{6});
    QVERIFY(shades.queries[0].box.bottom() < shades.keys[0].box.top());
    view->setHover({TextHit::Side::query, 0});
    QCOMPARE(view->shades().query, 0);
    view->setHover({TextHit::Side::key, 1});  // a key is no query here
    QCOMPARE(view->shades().query, 2);
  }

 private:
  TextView* show() {
    auto* dock = m_window->textViewDock();
    if (!dock->isVisible()) dock->toggleViewAction()->trigger();
    if (!QTest::qWaitFor([&] { return dock->isVisible(); }, kTimeout)) qWarning("not shown");
    QCoreApplication::processEvents();
    return m_window->textView();
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

QTEST_MAIN(TestTextView)
#include "test_text_view.moc"
