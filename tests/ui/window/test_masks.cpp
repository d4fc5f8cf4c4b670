// The mask, padding, input and weight editors end to end: editor controls -> Document
// (undoable config change) -> the real compute worker -> ForwardResult / heatmap grid.

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMouseEvent>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QSpinBox>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTest>
#include <QUndoStack>
#include <cmath>
#include <limits>

#include "compute/computation.hpp"
#include "desktop/steady_scroll_area.hpp"
#include "document/document.hpp"
#include "editors/attn_mask_editor.hpp"
#include "editors/inputs_editor.hpp"
#include "editors/mask_grid_view.hpp"
#include "editors/padding_editor.hpp"
#include "mhaviz/core/forward/derived_maps.hpp"
#include "mhaviz/core/gen/masks.hpp"
#include "prompted_window.hpp"
#include "render/heatmap_grid.hpp"
#include "window/main_window.hpp"
#include "window/parameter_panel.hpp"

using mhaviz::gen::MaskKind;
using mhaviz::ui::Computation;
using mhaviz::ui::Document;
using mhaviz::ui::MainWindow;

namespace {
constexpr int kTimeout = 30000;
constexpr double kInf = std::numeric_limits<double>::infinity();

/// Mask term (n, h, i, j) (the merged additive mask the forward pass used).
double maskAt(const mhaviz::ForwardResult& r, std::int64_t n, std::int64_t h, std::int64_t i,
              std::int64_t j) {
  return mhaviz::derived_value(r, mhaviz::DerivedMap::mask, n, h, i, j);
}
double weightAt(const mhaviz::ForwardResult& r, std::int64_t n, std::int64_t h, std::int64_t i,
                std::int64_t j) {
  return r.weights.value(((n * r.H + h) * r.L + i) * r.Sx + j);
}

/// What block (n, h) of the merged mask must hold for attn_mask `m` alone (bool True -> -inf,
/// float values added; 2-D repeated for every block; 3-D block b = n*H + h).
double expectedMask(const mhaviz::Tensor& m, std::int64_t b, std::int64_t i, std::int64_t j,
                    std::int64_t L, std::int64_t S) {
  const std::int64_t base = m.dim() == 3 ? b * L * S : 0;
  const double v = m.value(base + i * S + j);
  if (m.type() == mhaviz::ElemType::boolean) return v != 0.0 ? -kInf : 0.0;
  return v;
}
}  // namespace

class TestMasks : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { mhaviz::ui::testing::isolateSettings("mhaviz-mask-tests"); }

  void init() {
    m_window = new MainWindow;
    m_window->resize(1400, 900);
    m_window->show();
    dock()->raise();
    QVERIFY(idle());
    QVERIFY(computation()->result() != nullptr);
  }

  void cleanup() {
    delete m_window;
    m_window = nullptr;
  }

  void eachMaskKindReachesTheResult() {
    for (MaskKind kind : mhaviz::gen::kMaskKinds) {
      chooseKind(kind);
      QVERIFY(idle());
      const mhaviz::Config& c = document()->config();
      QCOMPARE(c.attn_mask_spec.kind, kind);
      const auto r = computation()->result();
      QVERIFY2(computation()->error().isEmpty(), qPrintable(computation()->error()));
      QCOMPARE(r->config.attn_mask_spec.kind, kind);
      const std::optional<mhaviz::Tensor> m = mhaviz::gen::make_attn_mask(c);
      QCOMPARE(m.has_value(), kind != MaskKind::none);
      for (std::int64_t h = 0; h < r->H; ++h) {
        for (std::int64_t i = 0; i < r->L; ++i) {
          for (std::int64_t j = 0; j < r->S; ++j) {
            const double want = m ? expectedMask(*m, h, i, j, r->L, r->S) : 0.0;
            QCOMPARE(maskAt(*r, 0, h, i, j), want);
          }
        }
      }
    }
  }

  void causalMaskIsMinusInfAboveTheDiagonal() {
    chooseKind(MaskKind::causal);
    QVERIFY(idle());
    const auto r = computation()->result();
    for (std::int64_t i = 0; i < r->L; ++i) {
      for (std::int64_t j = 0; j < r->S; ++j) {
        QCOMPARE(maskAt(*r, 0, 1, i, j), j > i ? -kInf : 0.0);
        if (j > i) QCOMPARE(weightAt(*r, 0, 1, i, j), 0.0);
      }
    }
    // The editor's preview shows the same bool mask.
    QCOMPARE(grid()->rows(), static_cast<int>(r->L));
    QCOMPARE(grid()->valueAt(0, 1), 1.0);
    QCOMPARE(grid()->valueAt(1, 0), 0.0);
    QVERIFY(grid()->isEditable());  // a click makes it custom (below)
  }

  // Issue 28 item 10: clicks on a causal grid did nothing and nothing said why. A click starts a
  // custom mask from the pattern shown, with the click applied, as one undoable step.
  void aClickOnAPatternStartsACustomMaskFromIt() {
    chooseKind(MaskKind::causal);
    QVERIFY(idle());
    const mhaviz::Config causal = document()->config();
    const int steps = document()->undoStack()->count();
    QVERIFY(grid()->isEditable());
    click(1, 0);  // open in the causal mask: now masked
    QVERIFY(idle());
    // Said inline, naming the pattern and the way back.
    auto* note = dock()->findChild<QLabel*>(QStringLiteral("maskCustomNote"));
    QVERIFY(note != nullptr && !note->isHidden());
    QVERIFY2(note->text().contains(QStringLiteral("causal")), qPrintable(note->text()));
    QVERIFY2(note->text().contains(QStringLiteral("Undo")), qPrintable(note->text()));
    click(2, 5);  // masked in the causal mask: now open
    QVERIFY(idle());
    QCOMPARE(document()->config().attn_mask_spec.kind, MaskKind::custom);
    QCOMPARE(document()->undoStack()->count(), steps + 2);
    const auto r = computation()->result();
    for (std::int64_t i = 0; i < r->L; ++i) {
      for (std::int64_t j = 0; j < r->S; ++j) {
        const bool masked = (j > i) != ((i == 1 && j == 0) || (i == 2 && j == 5));
        QCOMPARE(maskAt(*r, 0, 1, i, j), masked ? -kInf : 0.0);
        QCOMPARE(grid()->valueAt(static_cast<int>(i), static_cast<int>(j)), masked ? 1.0 : 0.0);
      }
    }
    document()->undoStack()->undo();  // the second click
    QVERIFY(idle());
    QCOMPARE(document()->config().attn_mask_spec.kind, MaskKind::custom);
    document()->undoStack()->undo();  // the first click and the change to custom, together
    QVERIFY(idle());
    QCOMPARE(document()->config(), causal);
    QCOMPARE(maskAt(*computation()->result(), 0, 0, 1, 0), 0.0);
  }

  // Choosing "custom" keeps what the grid showed (a window, a per-head bias), not an empty grid.
  void choosingCustomStartsFromThePatternShown() {
    const auto same = [this](const mhaviz::Config& before) {
      const std::optional<mhaviz::Tensor> want = mhaviz::gen::make_attn_mask(before);
      const auto r = computation()->result();
      QCOMPARE(document()->config().attn_mask_spec.kind, MaskKind::custom);
      for (std::int64_t h = 0; h < r->H; ++h) {
        for (std::int64_t i = 0; i < r->L; ++i) {
          for (std::int64_t j = 0; j < r->S; ++j) {
            QCOMPARE(maskAt(*r, 0, h, i, j), expectedMask(*want, h, i, j, r->L, r->S));
          }
        }
      }
    };
    chooseKind(MaskKind::window);
    QVERIFY(idle());
    const mhaviz::Config window = document()->config();
    chooseKind(MaskKind::custom);
    QVERIFY(idle());
    same(window);
    if (QTest::currentTestFailed()) return;
    auto* note = dock()->findChild<QLabel*>(QStringLiteral("maskCustomNote"));
    QVERIFY(note != nullptr && !note->isHidden());
    QVERIFY2(note->text().contains(QStringLiteral("sliding window")), qPrintable(note->text()));

    chooseKind(MaskKind::alibi);  // float, 3-D: a value per cell and head
    QVERIFY(idle());
    const mhaviz::Config alibi = document()->config();
    chooseKind(MaskKind::custom);
    QVERIFY(idle());
    same(alibi);
    if (QTest::currentTestFailed()) return;
    QCOMPARE(document()->config().attn_mask_spec.shape, mhaviz::gen::MaskShape::three_d);
  }

  // A pattern too large to list cell by cell says why and what to do; nothing changes.
  void aPatternTooLargeToEditSaysWhy() {
    panelSpin("tgt_len")->setValue(400);
    panelSpin("src_len")->setValue(400);
    QVERIFY(idle());
    chooseKind(MaskKind::causal);
    QVERIFY(idle());
    const mhaviz::Config before = document()->config();
    click(10, 300);
    QCoreApplication::processEvents();
    QCOMPARE(document()->config(), before);
    auto* note = dock()->findChild<QLabel*>(QStringLiteral("maskCustomNote"));
    QVERIFY(note != nullptr && !note->isHidden());
    QVERIFY2(note->text().contains(QStringLiteral("79800")), qPrintable(note->text()));
    QVERIFY(note->text().contains(QStringLiteral("smaller")));
  }

  void alibiIsFloatThreeDAndDiffersPerHead() {
    chooseKind(MaskKind::alibi);
    QVERIFY(idle());
    const mhaviz::Config& c = document()->config();
    QCOMPARE(c.attn_mask_spec.dtype, mhaviz::gen::MaskDType::floating);
    QCOMPARE(c.attn_mask_spec.shape, mhaviz::gen::MaskShape::three_d);
    auto* note = dock()->findChild<QLabel*>(QStringLiteral("maskNote"));
    QVERIFY(!note->isHidden());
    QVERIFY(note->text().contains(QStringLiteral("3-D")));
    const auto r = computation()->result();
    const std::vector<double> slopes = mhaviz::gen::alibi_slopes(r->H);
    for (std::int64_t h = 0; h < r->H; ++h) {
      QCOMPARE(maskAt(*r, 0, h, 0, 3), -slopes[static_cast<std::size_t>(h)] * 3.0);
    }
    QVERIFY(maskAt(*r, 0, 0, 0, 3) != maskAt(*r, 0, 1, 0, 3));
    // The block selector shows head 1's bias in the preview.
    editor()->selectBlock(1);
    QCOMPARE(grid()->valueAt(0, 3), -slopes[1] * 3.0);
  }

  void customClicksToggleExactlyThoseCellsAndSurviveResize() {
    chooseKind(MaskKind::custom);
    QVERIFY(idle());
    QVERIFY(grid()->isEditable());
    click(1, 2);
    click(3, 0);
    click(6, 7);
    QVERIFY(idle());
    using Cell = mhaviz::gen::MaskCell;
    std::vector<Cell> want = {
        {1, 2, -1, std::nullopt}, {3, 0, -1, std::nullopt}, {6, 7, -1, std::nullopt}};
    QCOMPARE(document()->config().attn_mask_spec.cells, want);
    auto r = computation()->result();
    for (std::int64_t i = 0; i < r->L; ++i) {
      for (std::int64_t j = 0; j < r->S; ++j) {
        const bool masked = (i == 1 && j == 2) || (i == 3 && j == 0) || (i == 6 && j == 7);
        QCOMPARE(maskAt(*r, 0, 0, i, j), masked ? -kInf : 0.0);
      }
    }
    click(3, 0);  // toggles it back
    QVERIFY(idle());
    want = {{1, 2, -1, std::nullopt}, {6, 7, -1, std::nullopt}};
    QCOMPARE(document()->config().attn_mask_spec.cells, want);
    QCOMPARE(maskAt(*computation()->result(), 0, 0, 3, 0), 0.0);

    // A drag paints every cell it crosses, as one undoable change.
    const int before = document()->undoStack()->count();
    drag({{0, 4}, {0, 5}, {1, 5}});
    QVERIFY(idle());
    QCOMPARE(document()->undoStack()->count(), before + 1);
    r = computation()->result();
    QCOMPARE(maskAt(*r, 0, 0, 0, 4), -kInf);
    QCOMPARE(maskAt(*r, 0, 0, 0, 5), -kInf);
    QCOMPARE(maskAt(*r, 0, 0, 1, 5), -kInf);

    // L 8 -> 4, S 8 -> 6: (6, 7) is outside and dropped, the rest kept; the note says so.
    panelSpin("tgt_len")->setValue(4);
    QVERIFY(idle());
    auto* note = dock()->findChild<QLabel*>(QStringLiteral("maskResizeNote"));
    QVERIFY(!note->isHidden());
    QVERIFY2(note->text().contains(QStringLiteral("dropped")), qPrintable(note->text()));
    panelSpin("src_len")->setValue(6);
    QVERIFY(idle());
    want = {{1, 2, -1, std::nullopt},
            {0, 4, -1, std::nullopt},
            {0, 5, -1, std::nullopt},
            {1, 5, -1, std::nullopt}};
    QCOMPARE(document()->config().attn_mask_spec.cells, want);
    r = computation()->result();
    QCOMPARE(r->L, 4);
    QCOMPARE(r->S, 6);
    QCOMPARE(maskAt(*r, 0, 1, 1, 2), -kInf);
    QCOMPARE(maskAt(*r, 0, 1, 3, 0), 0.0);
    QCOMPARE(grid()->rows(), 4);
    QCOMPARE(grid()->cols(), 6);
  }

  void customToolsClearInvertFill() {
    chooseKind(MaskKind::custom);
    QVERIFY(idle());
    dock()->findChild<QSpinBox*>(QStringLiteral("cellRow"))->setValue(2);
    button("fillRow")->click();
    QVERIFY(idle());
    auto r = computation()->result();
    for (std::int64_t j = 0; j < r->S; ++j) QCOMPARE(maskAt(*r, 0, 0, 2, j), -kInf);
    QVERIFY(std::isnan(weightAt(*r, 0, 0, 2, 0)));  // a fully masked row is NaN
    button("invertCells")->click();
    QVERIFY(idle());
    r = computation()->result();
    QCOMPARE(maskAt(*r, 0, 0, 2, 3), 0.0);
    QCOMPARE(maskAt(*r, 0, 0, 4, 3), -kInf);
    button("clearCells")->click();
    QVERIFY(idle());
    QVERIFY(document()->config().attn_mask_spec.cells.empty());
    // Float custom mask: a click sets the value of the spin box.
    chooseCombo("attnMaskDtype", 1);
    dock()->findChild<QCheckBox*>(QStringLiteral("cellMasked"))->setChecked(false);
    dock()->findChild<QDoubleSpinBox*>(QStringLiteral("cellValue"))->setValue(2.5);
    click(0, 1);
    QVERIFY(idle());
    QCOMPARE(maskAt(*computation()->result(), 0, 0, 0, 1), 2.5);
  }

  void fullyPaddedElementShowsNaNRowsAndTheNote() {
    panelSpin("batch_size")->setValue(2);
    QVERIFY(idle());
    chooseCombo("paddingKind", 1);  // valid lengths
    QVERIFY(idle());
    dock()->findChild<QSpinBox*>(QStringLiteral("paddingElement"))->setValue(1);
    dock()->findChild<QSpinBox*>(QStringLiteral("paddingLength"))->setValue(0);
    QVERIFY(idle());
    QCOMPARE(document()->config().key_padding_spec.valid_lengths,
             (std::vector<std::int64_t>{8, 0}));
    auto r = computation()->result();
    for (std::int64_t i = 0; i < r->L; ++i) {
      QVERIFY(std::isnan(weightAt(*r, 1, 0, i, 0)));
      QVERIFY(std::isfinite(weightAt(*r, 0, 0, i, 0)));
    }
    auto* padding = dock()->findChild<mhaviz::ui::KeyPaddingEditor*>();
    QVERIFY2(padding->note().contains(QStringLiteral("NaN")), qPrintable(padding->note()));
    QVERIFY(padding->note().contains(QStringLiteral("Batch element 1")));
    // add_zero_attn rescues it: finite rows, the note says why.
    panelCheck("add_zero_attn")->click();
    QVERIFY(idle());
    r = computation()->result();
    QVERIFY(std::isfinite(weightAt(*r, 1, 0, 0, r->Sx - 1)));
    QCOMPARE(weightAt(*r, 1, 0, 0, r->Sx - 1), 1.0);
    QVERIFY(padding->note().contains(QStringLiteral("add_zero_attn")));
    QVERIFY(!padding->note().contains(QStringLiteral("NaN")));
  }

  // Issue 28 item 11: the Masks dock moved by itself: rows appearing above the field being
  // worked in pushed it from under the pointer, and the next click and keys went into another
  // field ("5" went into key labels). The field stays where it was on screen.
  void aFieldStaysUnderThePointerWhenRowsAboveChange() {
    m_window->resize(1280, 720);
    QTRY_COMPARE(m_window->size(), QSize(1280, 720));
    auto* scroll = dock()->findChild<mhaviz::ui::SteadyScrollArea*>();
    QVERIFY(scroll != nullptr);
    auto* queries = dock()->findChild<QLineEdit*>(QStringLiteral("queryLabels"));
    auto* keys = dock()->findChild<QLineEdit*>(QStringLiteral("keyLabels"));
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

    // The pointer over the causal grid, a click: the custom tools and a note appear above it,
    // and the grid stays under the pointer.
    mhaviz::ui::MaskGridView* g = grid();
    scroll->ensureWidgetVisible(g);
    QTRY_VERIFY(g->mapTo(scroll->viewport(), QPoint(0, 0)).y() >= 0);
    const QPoint cell = g->cellCenter(2, 0);
    QEnterEvent enter(cell, g->mapTo(m_window, cell), g->mapToGlobal(cell));
    QApplication::sendEvent(g, &enter);
    const QPoint gridBefore = g->mapTo(scroll->viewport(), QPoint(0, 0));
    click(2, 0);
    QVERIFY(idle());
    QCOMPARE(document()->config().attn_mask_spec.kind, MaskKind::custom);
    QTRY_COMPARE(g->mapTo(scroll->viewport(), QPoint(0, 0)), gridBefore);
  }

  // Issue 28 item 11: the padding editor's batch element is the one the maps show, both ways,
  // and choosing it there says so.
  void paddingAndTheMapsShowTheSameBatchElement() {
    mhaviz::Config c = document()->config();
    c.batch_size = 3;
    c.key_padding_spec.kind = mhaviz::gen::PaddingKind::lengths;
    c.key_padding_spec.valid_lengths = {8, 5, 2};
    document()->changeConfig(c, QStringLiteral("padding"));
    QVERIFY(idle());
    auto* element = dock()->findChild<QSpinBox*>(QStringLiteral("paddingElement"));
    auto* length = dock()->findChild<QSpinBox*>(QStringLiteral("paddingLength"));
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
    const QString message = m_window->statusBar()->currentMessage();
    QVERIFY2(message.contains(QStringLiteral("batch element 1")), qPrintable(message));
    // And the row itself says that the element edited is the one shown.
    auto* shown = dock()->findChild<QLabel*>(QStringLiteral("paddingElementShown"));
    QVERIFY(shown != nullptr && shown->isVisibleTo(dock()));
    QVERIFY(shown->text().contains(QStringLiteral("maps show")));
  }

  // The padded-keys list holds its keys while it is shown (kind "keys"), the padded ones
  // checked, and a click pads a key; under another kind it holds none (refilling its 4096 items
  // at every change of a long context took the GUI thread milliseconds).
  void thePaddedKeysListIsFilledWhileShown() {
    auto* list = dock()->findChild<QListWidget*>(QStringLiteral("paddedKeys"));
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
    QCOMPARE(document()->config().key_padding_spec.padded_keys[0],
             (std::vector<std::int64_t>{1, 2}));
    QCOMPARE(list->item(1)->checkState(), Qt::Checked);
    QCOMPARE(list->item(2)->checkState(), Qt::Checked);
    c = document()->config();
    c.key_padding_spec.kind = mhaviz::gen::PaddingKind::none;
    document()->changeConfig(c, QStringLiteral("padding"));
    QVERIFY(idle());
    QCOMPARE(list->count(), 0);
  }

  void isCausalWithoutMaskShowsTheCoreMessageAndOneClickFix() {
    panelCheck("is_causal")->click();
    QVERIFY(idle());
    QVERIFY2(computation()->error().contains(
                 QStringLiteral("Need attn_mask if specifying the is_causal hint")),
             qPrintable(computation()->error()));
    auto* label = m_window->panel()->findChild<QLabel*>(QStringLiteral("errorLabel"));
    QVERIFY(!label->isHidden());
    QVERIFY(label->text().contains(QStringLiteral("Need attn_mask")));
    QVERIFY(computation()->isOutOfDate());
    auto* fix = m_window->panel()->findChild<QPushButton*>(QStringLiteral("useCausalMask"));
    QVERIFY(fix != nullptr);
    QVERIFY(!fix->parentWidget()->isHidden());
    QVERIFY(panelCheck("is_causal")->toolTip().contains(QStringLiteral("requires attn_mask")));
    fix->click();
    QVERIFY(idle());
    QCOMPARE(document()->config().attn_mask_spec.kind, MaskKind::causal);
    QVERIFY(computation()->error().isEmpty());
    QVERIFY(fix->parentWidget()->isHidden());
    QCOMPARE(maskAt(*computation()->result(), 0, 0, 0, 1), -kInf);
  }

  void tokenLabelsAppearOnTheGridAndWrongCountsAreReported() {
    auto* queries = dock()->findChild<QLineEdit*>(QStringLiteral("queryLabels"));
    auto* keys = dock()->findChild<QLineEdit*>(QStringLiteral("keyLabels"));
    queries->setText(QStringLiteral("The cat sat on the mat today ."));
    keys->setText(QStringLiteral("k0, k1, k2, k3, k4, k5, k6, k7"));
    emit keys->editingFinished();
    QVERIFY(idle());
    QCOMPARE(document()->config().key_labels.size(), std::size_t{8});
    QCOMPARE(document()->config().query_labels.at(1), std::string("cat"));
    const QStringList columns = m_window->grid()->columnLabels(0);
    QCOMPARE(columns.size(), 8);
    QCOMPARE(columns.at(0), QStringLiteral("k0"));
    QCOMPARE(columns.at(7), QStringLiteral("k7"));
    QCOMPARE(document()->view().queryLabels.at(1), QStringLiteral("cat"));

    auto* inputs = dock()->findChild<mhaviz::ui::InputsEditor*>();
    keys->setText(QStringLiteral("a b"));
    emit keys->editingFinished();
    QVERIFY2(inputs->labelsMessage().contains(QStringLiteral("2 key labels for S = 8")),
             qPrintable(inputs->labelsMessage()));
    QCOMPARE(document()->config().key_labels.size(), std::size_t{8});  // unchanged
  }

  void inputAndWeightKindsChangeTheResult() {
    const auto first = computation()->result();
    chooseCombo("inputKind", 1);  // one-hot tokens
    QVERIFY(idle());
    const auto oneHot = computation()->result();
    QVERIFY(oneHot->q.value(0) != first->q.value(0));
    chooseCombo("weightKind", 1);  // identity projections
    QVERIFY(idle());
    // Identity projections of one-hot tokens: head 0's raw scores are I / sqrt(head_dim).
    const auto r = computation()->result();
    const double scale = 1.0 / std::sqrt(static_cast<double>(r->hd));
    for (std::int64_t i = 0; i < r->L; ++i) {
      for (std::int64_t j = 0; j < r->S; ++j) {
        const double got = mhaviz::derived_value(*r, mhaviz::DerivedMap::raw_scores, 0, 0, i, j);
        QVERIFY(std::abs(got - (i == j ? scale : 0.0)) < 1e-6);
      }
    }
    dock()->findChild<QDoubleSpinBox*>(QStringLiteral("weightScale"))->setValue(2.0);
    QVERIFY(idle());
    const double scaled =
        mhaviz::derived_value(*computation()->result(), mhaviz::DerivedMap::raw_scores, 0, 0, 0, 0);
    QVERIFY(std::abs(scaled - 4.0 * scale) < 1e-5);  // q and k both doubled
    chooseCombo("inputKind", 2);                     // sinusoidal
    QVERIFY(idle());
    QVERIFY(computation()->result()->q.value(0) != r->q.value(0));
    dock()->findChild<QCheckBox*>(QStringLiteral("selfAttention"))->setChecked(true);
    QVERIFY(idle());
    QVERIFY(document()->config().input_spec.self_attention);
    QVERIFY(computation()->error().isEmpty());
  }

  void undoRestoresThePreviousMask() {
    chooseKind(MaskKind::causal);
    QVERIFY(idle());
    chooseKind(MaskKind::band);
    QVERIFY(idle());
    QCOMPARE(maskAt(*computation()->result(), 0, 0, 0, 1), 0.0);  // band width 3 sees key 1
    document()->undoStack()->undo();
    QVERIFY(idle());
    QCOMPARE(document()->config().attn_mask_spec.kind, MaskKind::causal);
    QCOMPARE(maskAt(*computation()->result(), 0, 0, 0, 1), -kInf);
    auto* kind = dock()->findChild<QComboBox*>(QStringLiteral("attnMaskKind"));
    QCOMPARE(kind->currentData().toInt(), static_cast<int>(MaskKind::causal));
    document()->undoStack()->undo();
    QVERIFY(idle());
    QCOMPARE(document()->config().attn_mask_spec.kind, MaskKind::none);
    QCOMPARE(maskAt(*computation()->result(), 0, 0, 0, 1), 0.0);
  }

  // Not a check: with MHAVIZ_MASK_SCREENSHOTS=<prefix> (run under a real X server) saves
  // <prefix>causal-bool.png, alibi-per-head.png, custom-grid.png and fully-padded.png.
  void screenshots() {
    const QString prefix = qEnvironmentVariable("MHAVIZ_MASK_SCREENSHOTS");
    if (prefix.isEmpty()) QSKIP("set MHAVIZ_MASK_SCREENSHOTS to save screenshots");
    const auto shoot = [this, &prefix](const char* name) {
      QVERIFY(idle());
      QVERIFY(QTest::qWaitForWindowExposed(m_window));
      QVERIFY(mhaviz::ui::testing::pictureSettled(*m_window->grid()));
      QScreen* screen = m_window->screen();
      QVERIFY(
          screen->grabWindow(0).save(prefix + QString::fromLatin1(name) + QStringLiteral(".png")));
    };
    m_window->move(0, 0);
    chooseKind(MaskKind::causal);
    shoot("causal-bool");

    panelSpin("num_heads")->setValue(4);
    chooseKind(MaskKind::alibi);
    QVERIFY(idle());
    editor()->selectBlock(2);
    mhaviz::ui::ViewOptions view = document()->view();
    view.stage = mhaviz::ui::Stage::scores;
    document()->setView(view);
    shoot("alibi-per-head");

    view.stage = mhaviz::ui::Stage::weights;
    document()->setView(view);
    panelSpin("num_heads")->setValue(2);
    chooseKind(MaskKind::custom);
    QVERIFY(idle());
    for (int j = 0; j < 8; ++j) click(j, 7 - j);
    drag({{0, 0}, {0, 1}, {0, 2}});
    shoot("custom-grid");

    document()->undoStack()->clear();
    chooseKind(MaskKind::none);
    panelSpin("batch_size")->setValue(2);
    chooseCombo("paddingKind", 1);
    QVERIFY(idle());
    dock()->findChild<QSpinBox*>(QStringLiteral("paddingElement"))->setValue(1);
    dock()->findChild<QSpinBox*>(QStringLiteral("paddingLength"))->setValue(0);
    QVERIFY(idle());
    view = document()->view();
    view.batch = 1;
    document()->setView(view);
    shoot("fully-padded");
  }

 private:
  [[nodiscard]] Document* document() const { return m_window->document(); }
  [[nodiscard]] Computation* computation() const { return m_window->computation(); }
  [[nodiscard]] QDockWidget* dock() const {
    QDockWidget* d = m_window->maskDock();
    if (d == nullptr) qFatal("no mask dock");
    return d;
  }
  [[nodiscard]] mhaviz::ui::AttnMaskEditor* editor() const {
    return dock()->findChild<mhaviz::ui::AttnMaskEditor*>();
  }
  [[nodiscard]] mhaviz::ui::MaskGridView* grid() const { return editor()->grid(); }
  [[nodiscard]] QSpinBox* panelSpin(const char* name) const {
    auto* s = m_window->panel()->findChild<QSpinBox*>(QString::fromLatin1(name));
    if (s == nullptr) qFatal("no spin box %s", name);
    return s;
  }
  [[nodiscard]] QCheckBox* panelCheck(const char* name) const {
    auto* c = m_window->panel()->findChild<QCheckBox*>(QString::fromLatin1(name));
    if (c == nullptr) qFatal("no check box %s", name);
    return c;
  }
  [[nodiscard]] QPushButton* button(const char* name) const {
    auto* b = dock()->findChild<QPushButton*>(QString::fromLatin1(name));
    if (b == nullptr) qFatal("no button %s", name);
    return b;
  }
  /// Picks item `index` of a combo box in the dock as a user would (activated is emitted).
  void chooseCombo(const char* name, int index) const {
    auto* combo = dock()->findChild<QComboBox*>(QString::fromLatin1(name));
    if (combo == nullptr) qFatal("no combo box %s", name);
    combo->setCurrentIndex(index);
    emit combo->activated(index);
  }
  void chooseKind(MaskKind kind) const {
    auto* combo = dock()->findChild<QComboBox*>(QStringLiteral("attnMaskKind"));
    chooseCombo("attnMaskKind", combo->findData(static_cast<int>(kind)));
  }
  void click(int i, int j) const {
    QTest::mouseClick(grid(), Qt::LeftButton, {}, grid()->cellCenter(i, j));
  }
  /// Press on the first cell, move over the others with the button held, release on the last.
  void drag(const QList<QPoint>& cells) const {
    mhaviz::ui::MaskGridView* g = grid();
    const auto at = [g](const QPoint& c) { return QPointF(g->cellCenter(c.x(), c.y())); };
    const QPointF start = at(cells.first());
    QMouseEvent press(QEvent::MouseButtonPress, start, g->mapToGlobal(start), Qt::LeftButton,
                      Qt::LeftButton, {});
    QApplication::sendEvent(g, &press);
    for (const QPoint& c : cells) {
      QMouseEvent move(QEvent::MouseMove, at(c), g->mapToGlobal(at(c)), Qt::NoButton,
                       Qt::LeftButton, {});
      QApplication::sendEvent(g, &move);
    }
    QMouseEvent release(QEvent::MouseButtonRelease, at(cells.last()),
                        g->mapToGlobal(at(cells.last())), Qt::LeftButton, Qt::NoButton, {});
    QApplication::sendEvent(g, &release);
  }
  [[nodiscard]] bool idle() const {
    const bool done = QTest::qWaitFor([this] { return !computation()->isBusy(); }, kTimeout);
    QCoreApplication::processEvents();
    return done;
  }

  MainWindow* m_window = nullptr;
};

QTEST_MAIN(TestMasks)
#include "test_masks.moc"
