// The padding, input and weight editors end to end: fully padded elements, the padded keys and
// batch element shown, token labels, input and weight kinds; the dock keeps a field in place.

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QScrollBar>
#include <cmath>

#include "desktop/steady_scroll_area.hpp"
#include "editors/inputs_editor.hpp"
#include "editors/padding_editor.hpp"
#include "test_editors.hpp"

using mhaviz::gen::MaskKind;
using namespace mhaviz::ui::testing::editors;

void TestEditors::fullyPaddedElementShowsNaNRowsAndTheNote() {
  e().change(QStringLiteral("Set batch_size to 2"), [](mhaviz::Config& c) { c.batch_size = 2; });
  QVERIFY(idle());
  chooseItem(e().padding()->controls().kind, 1);  // valid lengths
  QVERIFY(idle());
  e().padding()->controls().element->setValue(1);
  e().padding()->controls().length->setValue(0);
  QVERIFY(idle());
  QCOMPARE(document()->config().key_padding_spec.valid_lengths, (std::vector<std::int64_t>{8, 0}));
  auto r = document()->computed().result;
  for (std::int64_t i = 0; i < r->L; ++i) {
    QVERIFY(std::isnan(weightAt(*r, 1, 0, i, 0)));
    QVERIFY(std::isfinite(weightAt(*r, 0, 0, i, 0)));
  }
  auto* padding = e().padding();
  QVERIFY2(padding->note().contains(QStringLiteral("NaN")), qPrintable(padding->note()));
  QVERIFY(padding->note().contains(QStringLiteral("Batch element 1")));
  // add_zero_attn rescues it: finite rows, the note says why.
  e().change(QStringLiteral("Set add_zero_attn"),
             [](mhaviz::Config& c) { c.add_zero_attn = true; });
  QVERIFY(idle());
  r = document()->computed().result;
  QVERIFY(std::isfinite(weightAt(*r, 1, 0, 0, r->Sx - 1)));
  QCOMPARE(weightAt(*r, 1, 0, 0, r->Sx - 1), 1.0);
  QVERIFY(padding->note().contains(QStringLiteral("add_zero_attn")));
  QVERIFY(!padding->note().contains(QStringLiteral("NaN")));
}

// Issue 28 item 11: the Masks dock moved by itself: rows appearing above the field being
// worked in pushed it from under the pointer, and the next click and keys went into another
// field ("5" went into key labels). The field stays where it was on screen.
void TestEditors::aFieldStaysUnderThePointerWhenRowsAboveChange() {
  // 1280 x 720 less the window's menu bar and toolbars: the dock as tall as in the window.
  QMainWindow& window = e().window;
  window.resize(1280, 660);
  QTRY_COMPARE(window.size(), QSize(1280, 660));
  auto* scroll = dock()->findChild<mhaviz::ui::SteadyScrollArea*>();
  QVERIFY(scroll != nullptr);
  // A field keeps its place by scrolling with the rows: the dock must have somewhere to scroll.
  QTRY_VERIFY2(scroll->verticalScrollBar()->maximum() > 0, "the dock's fields fit: no scrolling");
  auto* queries = e().inputs()->controls().queryLabels;
  auto* keys = e().inputs()->controls().keyLabels;
  scroll->ensureWidgetVisible(queries);
  QTRY_VERIFY(scroll->viewport()->rect().contains(
      QRect(queries->mapTo(scroll->viewport(), QPoint(0, 0)), queries->size())));
  QTest::mouseClick(queries, Qt::LeftButton, {}, QPoint(10, queries->height() / 2));
  QTRY_VERIFY(queries->hasFocus());
  const QPoint before = queries->mapTo(scroll->viewport(), QPoint(0, 0));
  // Rows appear above it: the window kind's dtype, shape and width, the grid, a note.
  mhaviz::Config c = document()->config();
  c.attn_mask_spec.kind = MaskKind::window;
  document()->changeConfig(c, QStringLiteral("window"));
  QVERIFY(idle());
  QTRY_COMPARE(queries->mapTo(scroll->viewport(), QPoint(0, 0)), before);
  // A click where the field was lands in it, and so do the keys typed after it.
  const QPoint aim = before + QPoint(10, queries->height() / 2);
  QWidget* target = scroll->viewport()->childAt(aim);
  QVERIFY(target == queries || queries->isAncestorOf(target));
  QTest::mouseClick(target, Qt::LeftButton, {}, target->mapFrom(scroll->viewport(), aim));
  QTest::keyClicks(QApplication::focusWidget(), QStringLiteral("5"));
  QVERIFY2(queries->text().contains(u'5'), qPrintable(queries->text()));
  QVERIFY(!keys->text().contains(u'5'));

  // The pointer over the sliding-window grid, a click: the custom tools and a note appear above it,
  // and the grid stays under the pointer.
  mhaviz::ui::MaskGridView* g = grid();
  scroll->ensureWidgetVisible(g);
  QTRY_VERIFY(g->mapTo(scroll->viewport(), QPoint(0, 0)).y() >= 0);
  const QPoint cell = g->cellCenter(2, 0);
  QEnterEvent enter(cell, g->mapTo(&window, cell), g->mapToGlobal(cell));
  QApplication::sendEvent(g, &enter);
  const QPoint gridBefore = g->mapTo(scroll->viewport(), QPoint(0, 0));
  e().click(2, 0);
  QVERIFY(idle());
  QCOMPARE(document()->config().attn_mask_spec.kind, MaskKind::custom);
  QTRY_COMPARE(g->mapTo(scroll->viewport(), QPoint(0, 0)), gridBefore);
}

// Issue 28 item 11: the padding editor's batch element is the one the maps show, both ways,
// and choosing it there says so.
void TestEditors::paddingAndTheMapsShowTheSameBatchElement() {
  mhaviz::Config c = document()->config();
  c.batch_size = 3;
  c.key_padding_spec.kind = mhaviz::gen::PaddingKind::lengths;
  c.key_padding_spec.valid_lengths = {8, 5, 2};
  document()->changeConfig(c, QStringLiteral("padding"));
  QVERIFY(idle());
  auto* element = e().padding()->controls().element;
  auto* length = e().padding()->controls().length;
  // The view chooses batch element 2: the editor edits element 2.
  mhaviz::ui::ViewOptions view = document()->view();
  view.batch = 2;
  document()->setView(view);
  QCOMPARE(element->value(), 2);
  QCOMPARE(length->value(), 2);
  // The editor chooses element 1: the maps show it and the status bar says so.
  element->setValue(1);
  QCOMPARE(document()->view().batch, 1);
  QCOMPARE(length->value(), 5);
  const QString message = e().window.statusBar()->currentMessage();
  QVERIFY2(message.contains(QStringLiteral("batch element 1")), qPrintable(message));
  // And the row itself says that the element edited is the one shown.
  auto* shown = e().padding()->controls().elementShown;
  QVERIFY(shown != nullptr && shown->isVisibleTo(dock()));
  QVERIFY(shown->text().contains(QStringLiteral("maps show")));
}

// The padded-keys list holds its keys while it is shown (kind "keys"), the padded ones
// checked, and a click pads a key; under another kind it holds none (refilling its 4096 items
// at every change of a long context took the GUI thread milliseconds).
void TestEditors::thePaddedKeysListIsFilledWhileShown() {
  auto* list = e().padding()->controls().keys;
  QVERIFY(list != nullptr);
  mhaviz::Config c = document()->config();
  QCOMPARE(c.key_padding_spec.kind, mhaviz::gen::PaddingKind::none);
  QCOMPARE(list->count(), 0);
  c.key_padding_spec.kind = mhaviz::gen::PaddingKind::keys;
  c.key_padding_spec.padded_keys.assign(static_cast<std::size_t>(c.batch()), {});
  c.key_padding_spec.padded_keys[0] = {2};
  document()->changeConfig(c, QStringLiteral("padding"));
  QVERIFY(idle());
  QCOMPARE(list->count(), static_cast<int>(c.src_len));
  QCOMPARE(list->item(2)->checkState(), Qt::Checked);
  QCOMPARE(list->item(1)->checkState(), Qt::Unchecked);
  list->item(1)->setCheckState(Qt::Checked);
  QVERIFY(idle());
  QCOMPARE(document()->config().key_padding_spec.padded_keys[0], (std::vector<std::int64_t>{1, 2}));
  QCOMPARE(list->item(1)->checkState(), Qt::Checked);
  QCOMPARE(list->item(2)->checkState(), Qt::Checked);
  c = document()->config();
  c.key_padding_spec.kind = mhaviz::gen::PaddingKind::none;
  document()->changeConfig(c, QStringLiteral("padding"));
  QVERIFY(idle());
  QCOMPARE(list->count(), 0);
}

// The labels typed reach the configuration and the view (the window's grid shows them on its
// axes: tokenLabelsAppearOnTheGrid in tests/ui/window/test_masks.cpp).
void TestEditors::tokenLabelsReachTheConfigAndWrongCountsAreReported() {
  auto* queries = e().inputs()->controls().queryLabels;
  auto* keys = e().inputs()->controls().keyLabels;
  queries->setText(QStringLiteral("The cat sat on the mat today ."));
  keys->setText(QStringLiteral("k0, k1, k2, k3, k4, k5, k6, k7"));
  emit keys->editingFinished();
  QVERIFY(idle());
  QCOMPARE(document()->config().key_labels.size(), std::size_t{8});
  QCOMPARE(document()->config().query_labels.at(1), std::string("cat"));
  QCOMPARE(document()->view().queryLabels.at(1), QStringLiteral("cat"));
  // What the grid's columns are labelled with.
  QCOMPARE(document()->view().keyLabels,
           (QStringList{QStringLiteral("k0"), QStringLiteral("k1"), QStringLiteral("k2"),
                        QStringLiteral("k3"), QStringLiteral("k4"), QStringLiteral("k5"),
                        QStringLiteral("k6"), QStringLiteral("k7")}));

  auto* inputs = e().inputs();
  keys->setText(QStringLiteral("a b"));
  emit keys->editingFinished();
  QVERIFY2(inputs->labelsMessage().contains(QStringLiteral("2 key labels for S = 8")),
           qPrintable(inputs->labelsMessage()));
  QCOMPARE(document()->config().key_labels.size(), std::size_t{8});  // unchanged
}

void TestEditors::inputAndWeightKindsChangeTheResult() {
  const auto first = document()->computed().result;
  chooseItem(e().inputs()->controls().kind, 1);  // one-hot tokens
  QVERIFY(idle());
  const auto oneHot = document()->computed().result;
  QVERIFY(oneHot->q.value(0) != first->q.value(0));
  chooseItem(e().inputs()->controls().weightKind, 1);  // identity projections
  QVERIFY(idle());
  // Identity projections of one-hot tokens: head 0's raw scores are I / sqrt(head_dim).
  const auto r = document()->computed().result;
  const double scale = 1.0 / std::sqrt(static_cast<double>(r->hd));
  for (std::int64_t i = 0; i < r->L; ++i) {
    for (std::int64_t j = 0; j < r->S; ++j) {
      const double got = mhaviz::derived_value(*r, mhaviz::DerivedMap::raw_scores, 0, 0, i, j);
      QVERIFY(std::abs(got - (i == j ? scale : 0.0)) < 1e-6);
    }
  }
  e().inputs()->controls().weightScale->setValue(2.0);
  QVERIFY(idle());
  const double scaled = mhaviz::derived_value(*document()->computed().result,
                                              mhaviz::DerivedMap::raw_scores, 0, 0, 0, 0);
  QVERIFY(std::abs(scaled - 4.0 * scale) < 1e-5);  // q and k both doubled
  chooseItem(e().inputs()->controls().kind, 2);    // sinusoidal
  QVERIFY(idle());
  QVERIFY(document()->computed().result->q.value(0) != r->q.value(0));
  e().inputs()->controls().selfAttention->setChecked(true);
  QVERIFY(idle());
  QVERIFY(document()->config().input_spec.self_attention);
  QVERIFY(document()->computed().error.isEmpty());
}
