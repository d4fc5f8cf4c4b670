// Compare mode over a document and its computation: pin A, change a setting, and the difference
// is B - A of the two results (keys lined up by meaning); swap A and B; make B the new A;
// different sizes say why; the headers name the settings that differ and a NaN difference says
// where it comes from; a restored A is computed with its own tensors; the Compare menu follows.

#include <QAction>
#include <QLabel>
#include <QSignalSpy>
#include <QStackedWidget>
#include <QtTest>
#include <cmath>
#include <vector>

#include "compare/compare_panel.hpp"
#include "compute/computation.hpp"
#include "document/document.hpp"
#include "mhaviz/core/io/tensor_file.hpp"
#include "render/colormaps.hpp"
#include "render/heatmap_grid.hpp"
#include "stages/compare_stage.hpp"
#include "test_compare.hpp"

using namespace mhaviz::ui;
using namespace mhaviz::ui::testing::compare;

// Issue 28 item 7: the headers name every setting that differs, semantics included (both
// read "L=6 S=6 N=3 E=16 H=2, batch 2" before).
void TestCompareLayer::headersNameTheSettingsThatDiffer() {
  CompareWindow w;
  QVERIFY(w.idle());
  ComparePanel* panel = w.panel;
  panel->pin();
  QVERIFY(w.shown());
  const QLabel* titleA = panel->titleA();
  const QLabel* titleB = panel->titleB();
  QVERIFY(titleA != nullptr && titleB != nullptr);
  QVERIFY2(!titleB->text().contains(QStringLiteral("differs")), qPrintable(titleB->text()));
  mhaviz::Config b = w.document.config();
  b.semantics = mhaviz::Semantics::v1_13;
  b.need_weights = !b.need_weights;
  w.document.changeConfig(b, QStringLiteral("B"));
  QVERIFY(w.idle());
  QVERIFY(w.shown());
  const QString want =
      b.need_weights ? QStringLiteral("need_weights=True") : QStringLiteral("need_weights=False");
  QVERIFY2(
      titleB->text().contains(QStringLiteral("semantics=1.13")) && titleB->text().contains(want),
      qPrintable(titleB->text()));
  QVERIFY2(titleA->text().contains(QStringLiteral("semantics=2.x")), qPrintable(titleA->text()));
}

// Issue 28 item 7: A = 2.x, B = 1.13, need_weights=False, batch element 1 fully padded: B - A
// was all NaN (magenta) and nothing said why. The line above the grids says which side is
// NaN, where, and why, read from the results.
void TestCompareLayer::aNanDifferenceSaysWhereItComesFrom() {
  CompareWindow w;
  QVERIFY(w.idle());
  mhaviz::Config a = w.document.config();
  a.batch_size = 2;
  a.need_weights = false;
  a.key_padding_spec.kind = mhaviz::gen::PaddingKind::lengths;
  a.key_padding_spec.valid_lengths = {a.src_len, 0};
  w.document.changeConfig(a, QStringLiteral("A"));
  QVERIFY(w.idle());
  ViewOptions view = w.document.view();
  view.batch = 1;
  w.document.setView(view);
  ComparePanel* panel = w.panel;
  panel->pin();
  QVERIFY(w.shown());
  QVERIFY2(!panel->message().contains(QStringLiteral("NaN")), qPrintable(panel->message()));
  mhaviz::Config b = a;
  b.semantics = mhaviz::Semantics::v1_13;
  w.document.changeConfig(b, QStringLiteral("B"));
  QVERIFY(w.idle());
  QVERIFY(w.shown());
  // The data: B's rows are NaN, A's are 0, so every cell of B - A is NaN.
  const CompareData& d = panel->data();
  QVERIFY(d.ok());
  QVERIFY(std::isnan(d.b.maps[0].valueAt(0, 0)));
  QCOMPARE(d.a.maps[0].valueAt(0, 0), 0.0);
  QVERIFY(std::isnan(d.diff.maps[0].valueAt(0, 0)));
  const QString message = panel->message();
  const QString rows = QStringLiteral("queries 0\u2013%1 of batch element 1").arg(a.tgt_len - 1);
  for (const QString& fact : {QStringLiteral("B is NaN where A is not"), rows,
                              QStringLiteral("every key of these queries is masked in both"),
                              QStringLiteral("under 1.13 with need_weights=False gives NaN"),
                              QStringLiteral("SDPA path gives 0")}) {
    QVERIFY2(message.contains(fact), qPrintable(fact + QStringLiteral(" | ") + message));
  }
  QVERIFY(!message.contains(QStringLiteral("A is NaN")));
  // Swapped, A is the NaN side; batch element 0 has no NaN and no such line.
  panel->swap();
  QVERIFY(w.idle());
  QVERIFY(w.shown());
  QVERIFY2(panel->message().contains(QStringLiteral("A is NaN where B is not")),
           qPrintable(panel->message()));
  view.batch = 0;
  w.document.setView(view);
  QVERIFY(w.shown());
  QVERIFY2(!panel->message().contains(QStringLiteral("NaN")), qPrintable(panel->message()));
}

void TestCompareLayer::pinChangeAndTheDifferenceIsBMinusA() {
  CompareWindow w;
  QVERIFY(w.idle());
  ComparePanel* panel = w.panel;
  QVERIFY(!panel->isPinned());
  panel->pin();
  QVERIFY(w.shown());
  QVERIFY(panel->data().ok());
  // Same settings: B - A is 0 everywhere.
  for (double v : panel->data().diff.maps.front().values) QCOMPARE(v, 0.0);

  mhaviz::Config zeroKey = w.document.config();
  zeroKey.add_zero_attn = true;  // B gets an extra key column (the zero key)
  w.document.changeConfig(zeroKey, QStringLiteral("add_zero_attn"));
  QVERIFY(w.idle());
  QVERIFY(w.shown());
  const auto a = w.document.pinned()->result;
  const auto b = panel->resultB();
  QCOMPARE(b, w.document.computed().result);
  QVERIFY(!a->config.add_zero_attn);
  QVERIFY(b->config.add_zero_attn);
  const auto& data = panel->data();
  QVERIFY2(data.ok(), qPrintable(data.mismatch));
  QCOMPARE(data.diff.maps.size(), std::size_t(a->H + 1));  // heads and their average
  const auto head0 = data.diff.maps.front();               // a copy: swap replaces the data
  QCOMPARE(head0.cols, int(a->S));  // the zero key is only in B: left out, and said so
  QVERIFY(panel->message().contains(QStringLiteral("zero key")));
  double largest = 0;
  for (int i = 0; i < head0.rows; ++i) {
    for (int j = 0; j < head0.cols; ++j) {
      const double want = b->weights.value(i * b->Sx + j) - a->weights.value(i * a->Sx + j);
      QVERIFY(std::abs(head0.values[std::size_t(i * head0.cols + j)] - want) < 1e-12);
      largest = std::max(largest, std::abs(want));
    }
  }
  QVERIFY(largest > 0);
  // Signed, symmetric range, legend saying so.
  QVERIFY(data.diff.isSigned);
  QCOMPARE(data.diff.lo, -data.diff.hi);
  QVERIFY(data.diff.shownUnit.contains(QStringLiteral("symmetric")));
  QCOMPARE(panel->gridDiff()->mapCount(), int(a->H + 1));
  // Issue 40: the "masked" swatch was dark grey in B - A (the diverging map's), light grey in
  // A and B. One colour for the three, in none of their colormaps.
  QCOMPARE(panel->gridA()->maskedCellColor(), panel->gridDiff()->maskedCellColor());
  QCOMPARE(panel->gridB()->maskedCellColor(), panel->gridDiff()->maskedCellColor());
  QCOMPARE(panel->gridDiff()->maskedCellColor(),
           maskedColorBesideDiverging(w.document.view().colormap));

  // Swap: A is now the zero-key settings, the current settings are A's old ones.
  panel->swap();
  QVERIFY(w.idle());
  QVERIFY(w.shown());
  QVERIFY(w.document.pinned()->result->config.add_zero_attn);
  QVERIFY(!w.document.config().add_zero_attn);
  const auto& swapped = panel->data().diff.maps.front();
  for (std::size_t k = 0; k < swapped.values.size(); ++k) {
    QVERIFY(std::abs(swapped.values[k] + head0.values[k]) < 1e-12);
  }

  // Make B the new A: no difference left.
  panel->pin();
  QVERIFY(w.shown());
  for (double v : panel->data().diff.maps.front().values) QCOMPARE(v, 0.0);
}

void TestCompareLayer::differentSizesSayWhyInsteadOfDrawing() {
  CompareWindow w;
  QVERIFY(w.idle());
  ComparePanel* panel = w.panel;
  panel->pin();
  QVERIFY(w.shown());
  mhaviz::Config longer = w.document.config();
  longer.tgt_len += 2;
  w.document.changeConfig(longer, QStringLiteral("tgt_len"));
  QVERIFY(w.idle());
  QVERIFY(w.shown());
  QVERIFY(!panel->data().ok());
  QVERIFY2(panel->message().contains(QStringLiteral("queries")), qPrintable(panel->message()));
  QCOMPARE(panel->gridDiff()->mapCount(), 0);
  // The B − A grid says why in its own place (it said "No result to show yet.").
  QCOMPARE(panel->gridDiff()->message(), panel->message());
  QVERIFY(panel->gridA()->mapCount() > 0);
  // Heads are counted as heads, not as maps (the average over heads is a map).
  mhaviz::Config heads = w.document.config();
  heads.tgt_len -= 2;
  heads.embed_dim = 16;
  heads.num_heads = 4;
  w.document.changeConfig(heads, QStringLiteral("num_heads"));
  QVERIFY(w.idle());
  QVERIFY(w.shown());
  QVERIFY(w.document.view().showAverage);
  QVERIFY2(panel->message().endsWith(QStringLiteral("B has 4 (num_heads differ)")),
           qPrintable(panel->message()));
  QCOMPARE(panel->gridDiff()->message(), panel->message());
  panel->unpin();
  QVERIFY(!panel->isPinned());
}

namespace {

bool sameWeights(const mhaviz::ForwardResult& x, const mhaviz::ForwardResult& y) {
  if (x.weights.numel() != y.weights.numel()) return false;
  for (std::int64_t i = 0; i < x.weights.numel(); ++i) {
    if (x.weights.value(i) != y.weights.value(i)) return false;
  }
  return true;
}

/// A as a session holds it: its configuration and tensors, without its result.
Pinned withoutResult(const Pinned& a) { return Pinned{a.config, a.tensors, {}, {}, {}}; }

}  // namespace

// The document's A given without its result (as a session opens it: its configuration and
// tensors) is computed on the panel's own worker, with those tensors, not B's; pinning it that
// way is no edit of the user's (changedByUser), pinning and unpinning in the panel are.
void TestCompareLayer::aRestoredAIsComputedWithItsTensors() {
  mhaviz::Config c;
  c.embed_dim = 4;
  c.num_heads = 2;
  c.tgt_len = 3;
  c.src_len = 3;
  c.batch_size = std::nullopt;
  // A query that differs from the generated one.
  std::vector<float> q(12);
  for (std::size_t i = 0; i < q.size(); ++i) q[i] = static_cast<float>(i) * 0.25F - 1.0F;
  const auto query = std::make_shared<const mhaviz::io::TensorMap>(
      mhaviz::io::TensorMap{{"query", mhaviz::Tensor::from<float>({3, 4}, q)}});

  CompareWindow w;
  QVERIFY(w.idle());
  w.document.changeConfig(c, QStringLiteral("small"));
  QVERIFY(w.idle());
  const auto generated = w.document.computed().result;
  w.document.setTensors(query);
  QTRY_VERIFY_WITH_TIMEOUT(w.document.computed().result != generated && !w.document.computed().busy,
                           kTimeout);
  const mhaviz::Config aConfig = w.document.config();
  QSignalSpy edits(w.panel, &ComparePanel::changedByUser);
  w.panel->pin();
  QCOMPARE(edits.count(), 1);
  QVERIFY(w.shown());
  const Pinned saved = *w.document.pinned();
  QVERIFY(saved.config == aConfig);
  QCOMPARE(saved.tensors, query);
  QCOMPARE(saved.result, w.document.computed().result);
  // B: generated tensors and the bias keys; A keeps its tensors.
  w.document.setTensors(nullptr);
  QVERIFY(w.idle());
  mhaviz::Config withBiasKv = aConfig;
  withBiasKv.add_bias_kv = true;
  w.document.changeConfig(withBiasKv, QStringLiteral("B"));
  QVERIFY(w.idle());
  QVERIFY(w.shown());
  QVERIFY(w.document.tensors() == nullptr);
  QCOMPARE(w.document.pinned()->tensors, query);
  QVERIFY(w.panel->data().ok());
  const std::vector<double> before = w.panel->data().diff.maps.front().values;

  // Another window at B's settings (generated tensors): A comes back with its own.
  CompareWindow other;
  QVERIFY(other.idle());
  other.document.changeConfig(withBiasKv, QStringLiteral("B"));
  QVERIFY(other.idle());
  QSignalSpy otherEdits(other.panel, &ComparePanel::changedByUser);
  QSignalSpy pinned(other.panel, &ComparePanel::pinnedChanged);
  other.document.setPinned(withoutResult(saved));
  QVERIFY(other.panel->isRestoring());
  QVERIFY(!other.panel->isPinned());  // nothing to compare with until A is computed
  QVERIFY(QTest::qWaitFor(
      [&other] { return other.panel->isPinned() && !other.panel->isRestoring(); }, kTimeout));
  QVERIFY(other.shown());
  QCOMPARE(pinned.count(), 2);  // A being computed, then A
  QCOMPARE(pinned.at(0).at(0).toBool(), false);
  QCOMPARE(pinned.at(1).at(0).toBool(), true);
  QCOMPARE(otherEdits.count(), 0);  // a document's A is not an edit of the panel's
  const Pinned& restored = *other.document.pinned();
  QCOMPARE(restored.tensors, query);
  QVERIFY(restored.config == aConfig);
  QVERIFY(restored.result->config == aConfig);
  QVERIFY(sameWeights(*restored.result, *w.document.pinned()->result));
  const std::vector<double>& after = other.panel->data().diff.maps.front().values;
  QCOMPARE(after.size(), before.size());
  for (std::size_t k = 0; k < after.size(); ++k) QVERIFY(std::abs(after[k] - before[k]) < 1e-12);

  // The same A without its tensors is another result: the tensors above were A's.
  other.document.setPinned(Pinned{aConfig, nullptr, {}, {}, {}});
  QVERIFY(QTest::qWaitFor([&other] { return !other.panel->isRestoring(); }, kTimeout));
  QVERIFY(other.document.pinned()->tensors == nullptr);
  QVERIFY(!sameWeights(*other.document.pinned()->result, *w.document.pinned()->result));

  // An A that cannot be computed says why, inline, and stays the document's (a session saved
  // now keeps it); nothing is compared.
  mhaviz::Config bad = aConfig;
  bad.num_heads = 3;  // embed_dim 4 is not divisible by 3
  other.document.setPinned(Pinned{bad, nullptr, {}, {}, {}});
  QVERIFY(QTest::qWaitFor([&other] { return !other.panel->isRestoring(); }, kTimeout));
  QVERIFY(!other.panel->isPinned());
  QVERIFY(other.document.pinned().has_value());
  QVERIFY(!other.document.pinned()->error.isEmpty());
  QVERIFY2(other.panel->message().contains(QStringLiteral("A of the session cannot be computed")),
           qPrintable(other.panel->message()));

  // No A leaves compare mode, and that is not an edit either.
  other.document.setPinned(std::nullopt);
  QVERIFY(!other.panel->isPinned());
  QCOMPARE(pinned.at(pinned.count() - 1).at(0).toBool(), false);
  QVERIFY(other.panel->message().contains(QStringLiteral("Nothing is pinned")));
  QCOMPARE(otherEdits.count(), 0);
  // Leaving compare mode by hand is.
  w.panel->unpin();
  QCOMPARE(edits.count(), 2);
  QVERIFY(!w.document.pinned().has_value());
}

// The Compare menu installed with the dock: Swap and Leave only while A is pinned, and they act
// on the panel; the dock shows the panel (not a comparison of model files).
void TestCompareLayer::theCompareMenuFollowsThePanel() {
  CompareWindow w;
  QVERIFY(w.idle());
  QAction* pin = w.menu().pin;
  QAction* swap = w.menu().swap;
  QAction* leave = w.menu().leave;
  QVERIFY(pin != nullptr && swap != nullptr && leave != nullptr);
  QVERIFY(pin->isEnabled());
  QVERIFY(!swap->isEnabled());
  QVERIFY(!leave->isEnabled());
  QVERIFY2(w.panel->message().contains(QStringLiteral("Nothing is pinned")),
           qPrintable(w.panel->message()));
  pin->trigger();
  QVERIFY(w.panel->isPinned());
  QVERIFY(w.shown());
  QVERIFY(swap->isEnabled() && leave->isEnabled());
  QCOMPARE(w.pages()->currentWidget(), static_cast<QWidget*>(w.panel));
  mhaviz::Config b = w.document.config();
  b.add_bias_kv = !b.add_bias_kv;
  w.document.changeConfig(b, QStringLiteral("B"));
  QVERIFY(w.idle());
  QVERIFY(w.shown());
  swap->trigger();  // the current settings are A's again, A is B's
  QVERIFY(w.idle());
  QVERIFY(w.shown());
  QCOMPARE(w.document.config().add_bias_kv, !b.add_bias_kv);
  QCOMPARE(w.document.pinned()->result->config.add_bias_kv, b.add_bias_kv);
  leave->trigger();
  QVERIFY(!w.panel->isPinned());
  QVERIFY(!swap->isEnabled());
  QVERIFY(!leave->isEnabled());
  QVERIFY2(w.panel->message().contains(QStringLiteral("Nothing is pinned")),
           qPrintable(w.panel->message()));
  QCOMPARE(w.panel->gridDiff()->mapCount(), 0);
}

// The panel's own buttons follow the pin as the menu does: with nothing pinned the first pins A
// and Swap, Export and Leave are disabled (they did nothing), the empty grids hidden under the
// hint; once A is pinned it makes B the new A, and Export waits for the difference.
void TestCompareLayer::thePanelsButtonsFollowThePin() {
  CompareWindow w;
  QVERIFY(w.idle());
  ComparePanel* panel = w.panel;
  panel->show();
  const auto unpinned = [panel] {
    QVERIFY(panel->pinButton()->isEnabled());
    QVERIFY2(panel->pinButton()->text().startsWith(QStringLiteral("Pin current settings")),
             qPrintable(panel->pinButton()->text()));
    QVERIFY(!panel->swapButton()->isEnabled());
    QVERIFY(!panel->exportButton()->isEnabled());
    QVERIFY(!panel->leaveButton()->isEnabled());
    QVERIFY(!panel->gridA()->isVisibleTo(panel));
    QVERIFY(!panel->gridDiff()->isVisibleTo(panel));
    QVERIFY2(panel->message().contains(QStringLiteral("the button above")),
             qPrintable(panel->message()));
  };
  unpinned();
  if (QTest::currentTestFailed()) return;
  panel->pinButton()->click();
  QVERIFY(panel->isPinned());
  QCOMPARE(panel->pinButton()->text(), QStringLiteral("Make B the new A"));
  QVERIFY(panel->swapButton()->isEnabled() && panel->leaveButton()->isEnabled());
  QVERIFY(panel->gridA()->isVisibleTo(panel) && panel->gridDiff()->isVisibleTo(panel));
  QVERIFY(w.shown());
  QVERIFY(panel->exportButton()->isEnabled());
  mhaviz::Config b = w.document.config();
  b.num_heads = b.num_heads == 2 ? 4 : 2;  // no difference to export
  w.document.changeConfig(b, QStringLiteral("B"));
  QVERIFY(w.idle());
  QVERIFY(w.shown());
  QVERIFY(!panel->data().ok());
  QVERIFY(!panel->exportButton()->isEnabled());
  panel->leaveButton()->click();
  QVERIFY(!panel->isPinned());
  unpinned();
}

QTEST_MAIN(TestCompareLayer)
