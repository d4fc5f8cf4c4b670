// The patterns of current practice in the mask editor: their controls reach the result through
// the real compute worker; impossible settings give the core's message inline; the
// block-sparsity summary and grid follow the result. The Masks and inputs dock over a bare main
// window (mask_editors.hpp), not the whole window.

#include <QLineEdit>
#include <QObject>
#include <cmath>
#include <memory>

#include "editors/block_sparsity_view.hpp"
#include "mask_editors.hpp"

using mhaviz::gen::MaskKind;
using mhaviz::ui::testing::editors::kInf;
using mhaviz::ui::testing::editors::MaskEditors;

namespace {
double maskAt(const mhaviz::ForwardResult& r, std::int64_t h, std::int64_t i, std::int64_t j) {
  return mhaviz::ui::testing::editors::maskAt(r, 0, h, i, j);
}
}  // namespace

class TestMaskPatterns : public QObject {
  Q_OBJECT

 private slots:
  void init() {
    m_editors = std::make_unique<MaskEditors>();
    QVERIFY(idle());
    // A known starting point: L = S = 8, one batch element, two heads, no mask.
    mhaviz::Config c;
    c.tgt_len = 8;
    c.src_len = 8;
    document()->changeConfig(c, QStringLiteral("test"));
    QVERIFY(idle());
  }

  void cleanup() { m_editors.reset(); }

  void prefixLengthSpinReachesTheResult() {
    chooseKind(MaskKind::prefix_lm);
    QVERIFY(idle());
    mask().prefixLength->setValue(3);
    QVERIFY(idle());
    QCOMPARE(document()->config().attn_mask_spec.prefix_length, 3);
    const auto r = document()->computed().result;
    QVERIFY2(document()->computed().error.isEmpty(), qPrintable(document()->computed().error));
    QCOMPARE(maskAt(*r, 0, 0, 2), 0.0);    // inside the prefix: bidirectional
    QCOMPARE(maskAt(*r, 0, 0, 3), -kInf);  // past it, for an earlier query
    QCOMPARE(maskAt(*r, 1, 5, 4), 0.0);    // causal after the prefix
    QCOMPARE(maskAt(*r, 1, 5, 6), -kInf);
    QVERIFY(!mask().prefixLength->isHidden());
    QVERIFY(mask().dilation->isHidden());
  }

  void documentLengthsAreEditedAndBadOnesShowInline() {
    chooseKind(MaskKind::document);
    QVERIFY(idle());
    // The kind starts as two halves of the sequence.
    QCOMPARE(document()->config().attn_mask_spec.document_lengths,
             (std::vector<std::int64_t>{4, 4}));
    QVERIFY2(document()->computed().error.isEmpty(), qPrintable(document()->computed().error));
    auto* lengths = mask().documents;
    QVERIFY(lengths != nullptr);
    lengths->setText(QStringLiteral("3 5"));
    emit lengths->editingFinished();
    QVERIFY(idle());
    QCOMPARE(document()->config().attn_mask_spec.document_lengths,
             (std::vector<std::int64_t>{3, 5}));
    auto r = document()->computed().result;
    QCOMPARE(maskAt(*r, 0, 2, 3), -kInf);  // across documents
    QCOMPARE(maskAt(*r, 0, 4, 7), 0.0);    // inside the second (not causal)
    // Lengths that do not add up to L: the core's message, inline; the picture is kept.
    lengths->setText(QStringLiteral("3 4"));
    emit lengths->editingFinished();
    QVERIFY(idle());
    const QString error = document()->computed().error;
    QVERIFY2(error.contains(QStringLiteral("attn_mask.document_lengths sum to 7")),
             qPrintable(error));
    QVERIFY2(error.contains(QStringLiteral("add up to 8")), qPrintable(error));
    QCOMPARE(document()->computed().result->config.attn_mask_spec.document_lengths,
             (std::vector<std::int64_t>{3, 5}));
    // The preview grid says it too, instead of a picture.
    QVERIFY(editor()->grid()->message().contains(QStringLiteral("document_lengths")));
  }

  void dilatedAndSinkControls() {
    chooseKind(MaskKind::dilated);
    QVERIFY(idle());
    mask().dilation->setValue(3);
    mask().width->setValue(2);
    QVERIFY(idle());
    auto r = document()->computed().result;
    QCOMPARE(maskAt(*r, 0, 4, 1), 0.0);    // distance 3 = 1 * d
    QCOMPARE(maskAt(*r, 0, 4, 7), 0.0);    // not causal: both sides
    QCOMPARE(maskAt(*r, 0, 4, 2), -kInf);  // distance 2
    QCOMPARE(maskAt(*r, 0, 7, 1), -kInf);  // distance 6 = 2 * d, past the width
    chooseKind(MaskKind::sink);
    QVERIFY(idle());
    mask().sinkTokens->setValue(1);
    QVERIFY(idle());
    r = document()->computed().result;
    QCOMPARE(maskAt(*r, 0, 7, 0), 0.0);    // the sink
    QCOMPARE(maskAt(*r, 0, 7, 1), -kInf);  // neither sink nor window (width 2)
    QCOMPARE(maskAt(*r, 0, 7, 6), 0.0);
    QCOMPARE(maskAt(*r, 0, 2, 3), -kInf);  // causal
  }

  void blockSparsityFollowsTheResult() {
    mhaviz::Config c = document()->config();
    c.tgt_len = 200;
    c.src_len = 200;
    c.attn_mask_spec.kind = MaskKind::causal;
    document()->changeConfig(c, QStringLiteral("test"));
    QVERIFY(idle());
    auto* view = editor()->blockSparsity();
    // 200 x 200 causal: blocks of 64 -> 4 x 4 with 6 above the diagonal fully masked;
    // blocks of 128 -> 2 x 2 with 1.
    const auto r = document()->computed().result;
    const auto analyses = document()->computed().analyses;  // held beside the result
    const auto& sparsity = analyses->block_sparsity;
    QCOMPARE(sparsity.size(), std::size_t{2});
    QCOMPARE(sparsity[0].fully_masked, 6 * r->H);
    QCOMPARE(sparsity[1].fully_masked, r->H);
    QVERIFY2(view->summaryText().contains(QStringLiteral("6 of 16")) ||
                 view->summaryText().contains(QStringLiteral("12 of 32")),
             qPrintable(view->summaryText()));
    QVERIFY2(view->summaryText().contains(QStringLiteral("37.5%")),
             qPrintable(view->summaryText()));
    // add_zero_attn adds a key no mask covers: no block of its last column is skipped.
    c.add_zero_attn = true;
    document()->changeConfig(c, QStringLiteral("test"));
    QVERIFY(idle());
    QCOMPARE(document()->computed().analyses->block_sparsity[0].cols, 4);  // 201 keys
    QVERIFY(!document()->computed().analyses->block_sparsity[0].is_full(0, 0, 3));
  }

 private:
  [[nodiscard]] mhaviz::ui::Document* document() const { return &m_editors->document; }
  [[nodiscard]] mhaviz::ui::Computation* computation() const { return &m_editors->computation; }
  [[nodiscard]] mhaviz::ui::AttnMaskEditor* editor() const { return m_editors->editor(); }
  [[nodiscard]] mhaviz::ui::AttnMaskEditor::Controls mask() const { return m_editors->mask(); }
  void chooseKind(MaskKind kind) const { m_editors->chooseKind(kind); }
  [[nodiscard]] bool idle() const { return m_editors->idle(); }

  std::unique_ptr<MaskEditors> m_editors;
};

QTEST_MAIN(TestMaskPatterns)
#include "test_mask_patterns.moc"
