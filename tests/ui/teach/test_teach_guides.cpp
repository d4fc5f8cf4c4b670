// The shape-flow table, the help text, the walk-through's order and the bundled examples
// (TestTeach's slots, test_teach.hpp).

#include <QRegularExpression>
#include <QTableWidget>
#include <QTest>
#include <QTextBlock>
#include <QTextDocument>

#include "mhaviz/core/spec/shapes.hpp"
#include "teach/examples.hpp"
#include "teach/explanations.hpp"
#include "teach/stage_guide.hpp"
#include "teach/teach_docks.hpp"
#include "test_teach.hpp"

using namespace mhaviz::ui;  // NOLINT(google-build-using-namespace): test brevity
using mhaviz::ui::test::compute;
using mhaviz::ui::test::ComputedProblem;

void TestTeach::shapeTableEqualsShapeFlow() {
  QList<mhaviz::Config> configs;
  mhaviz::Config base;
  configs << base;
  mhaviz::Config bias = base;
  bias.add_bias_kv = true;
  configs << bias;
  mhaviz::Config zero = base;
  zero.add_zero_attn = true;
  configs << zero;
  mhaviz::Config both = bias;
  both.add_zero_attn = true;
  configs << both;
  mhaviz::Config unbatched = both;
  unbatched.batch_size.reset();
  configs << unbatched;
  mhaviz::Config first = base;
  first.batch_first = true;
  first.batch_size = 3;
  first.tgt_len = 5;
  configs << first;
  mhaviz::Config cross = base;
  cross.kdim = 6;
  cross.vdim = 10;
  configs << cross;
  ShapeFlowDock dock;
  for (const mhaviz::Config& config : configs) {
    dock.showConfig(config);
    const auto steps = mhaviz::shape_flow(config);
    QTableWidget* table = dock.table();
    QCOMPARE(table->rowCount(), static_cast<int>(steps.size()));
    for (int r = 0; r < table->rowCount(); ++r) {
      const auto& s = steps[static_cast<std::size_t>(r)];
      QCOMPARE(table->item(r, 0)->text(), QString::fromStdString(s.step));
      QCOMPARE(table->item(r, 1)->text(), QString::fromStdString(s.tensor));
      QCOMPARE(table->item(r, 2)->text(), QString::fromStdString(s.symbolic));
      QCOMPARE(table->item(r, 3)->text(), QString::fromStdString(mhaviz::shape_str(s.shape)));
    }
  }
  dock.showConfig(both);
  bool sawS2 = false;
  for (int r = 0; r < dock.table()->rowCount(); ++r) {
    sawS2 = sawS2 || dock.table()->item(r, 2)->text().contains(QStringLiteral("S+2"));
  }
  QVERIFY(sawS2);
}

// Issue 15 item 13: the help said "S becomes S+2" for add_zero_attn alone, and never named
// the usual mistake (prepending). Each key count the help states agrees with shape_flow.
void TestTeach::helpTextStatesTheKeyCountsAndTheMisconception() {
  const QList<ExplanationPage> pages = explanationPages();
  QVERIFY(!pages.isEmpty());
  // What a reader sees: the page's text and the words it sets in bold (not its markup).
  QTextDocument page;
  page.setHtml(pages.front().html);
  const QString text = page.toPlainText().simplified();
  QStringList bold;
  for (QTextBlock block = page.begin(); block.isValid(); block = block.next()) {
    for (auto it = block.begin(); !it.atEnd(); ++it) {
      if (it.fragment().charFormat().fontWeight() >= QFont::Bold) {
        bold << it.fragment().text().simplified();
      }
    }
  }
  QVERIFY2(!text.contains(QStringLiteral(". S becomes S+2.")),
           qPrintable(text));  // unconditional
  QVERIFY2(text.contains(QStringLiteral("With add_zero_attn alone S becomes S+1")),
           qPrintable(text));
  QVERIFY(text.contains(QStringLiteral("with both options S becomes S+2")));
  // The usual mistake is named, and the words that correct it stand out.
  QVERIFY(text.contains(QStringLiteral("not prepended")));
  QVERIFY2(bold.contains(QStringLiteral("not prepended")), qPrintable(bold.join(" | ")));
  QVERIFY(text.contains(QStringLiteral("after the projection")));
  QVERIFY(text.contains(QStringLiteral("after the head split")));
  QVERIFY2(bold.count(QStringLiteral("after")) >= 2, qPrintable(bold.join(" | ")));
  QVERIFY(guideStep(Stage::k).explanation.contains(QStringLiteral("does not prepend")));
  // The counts match the core's shape flow: zero alone S+1, bias_kv alone S+1, both S+2.
  const auto lastKeySymbol = [](bool biasKv, bool zero) {
    mhaviz::Config c;
    c.embed_dim = 4;
    c.num_heads = 2;
    c.add_bias_kv = biasKv;
    c.add_zero_attn = zero;
    std::string last;
    for (const auto& step : mhaviz::shape_flow(c)) {
      if (step.symbolic.find("S+") != std::string::npos) last = step.symbolic;
    }
    return QString::fromStdString(last);
  };
  QVERIFY2(lastKeySymbol(false, true).contains(QStringLiteral("S+1")),
           qPrintable(lastKeySymbol(false, true)));
  QVERIFY(lastKeySymbol(true, false).contains(QStringLiteral("S+1")));
  QVERIFY(lastKeySymbol(true, true).contains(QStringLiteral("S+2")));
  // The page states exactly the core's counts.
  const auto count = [&lastKeySymbol](bool biasKv, bool zero) {
    const QRegularExpressionMatch m =
        QRegularExpression(QStringLiteral("S\\+\\d")).match(lastKeySymbol(biasKv, zero));
    return m.captured(0);
  };
  QVERIFY(
      text.contains(QStringLiteral("With add_zero_attn alone S becomes ") + count(false, true)));
  QVERIFY(text.contains(QStringLiteral("with both options S becomes ") + count(true, true)));
}

void TestTeach::walkThroughFollowsPyTorchsOrder() {
  const QList<Stage> expected = {Stage::in_proj_weight,
                                 Stage::q,
                                 Stage::k,
                                 Stage::v,
                                 Stage::raw_scores,
                                 Stage::mask,
                                 Stage::scores,
                                 Stage::weights_before_dropout,
                                 Stage::weights,
                                 Stage::head_output,
                                 Stage::merged,
                                 Stage::out_proj_weight,
                                 Stage::output,
                                 Stage::value_norms,
                                 Stage::value_zeroing,
                                 Stage::sink_scores};
  QCOMPARE(walkStages(nullptr), expected);
  Stage s = expected.front();
  for (qsizetype i = 1; i < expected.size(); ++i) {
    s = stepFrom(s, +1, nullptr);
    QCOMPARE(s, expected[i]);
  }
  QCOMPARE(stepFrom(s, +1, nullptr), Stage::sink_scores);  // clamped at the end
  for (qsizetype i = expected.size() - 2; i >= 0; --i) {
    s = stepFrom(s, -1, nullptr);
    QCOMPARE(s, expected[i]);
  }
  QCOMPARE(stepFrom(s, -1, nullptr), Stage::in_proj_weight);
  for (const GuideStep& step : guideSteps()) {
    QVERIFY(!step.explanation.isEmpty());
    QVERIFY(!step.code.isEmpty());
  }
  QVERIFY(guideStep(Stage::scores).code.contains(QStringLiteral("torch.baddbmm(attn_mask")));
  // Without dropout the walk skips weights_before_dropout.
  const ComputedProblem c = compute(mhaviz::Config{});
  QVERIFY(!walkStages(&c.result).contains(Stage::weights_before_dropout));
  QCOMPARE(stepFrom(Stage::scores, +1, &c.result), Stage::weights);
}

void TestTeach::everyBundledExampleParsesAndComputes() {
  const QList<ExampleSession> examples = exampleSessions();
  QCOMPARE(examples.size(), 6);
  for (const ExampleSession& example : examples) {
    mhaviz::Config config;
    try {
      config = loadExample(example.resource);
      const ComputedProblem c = compute(config);
      QVERIFY(c.result.N >= 1);
    } catch (const std::exception& e) {
      QFAIL(qPrintable(example.resource + QStringLiteral(": ") + QString::fromUtf8(e.what())));
    }
  }
  const ComputedProblem both =
      compute(loadExample(QStringLiteral(":/examples/bias_kv_and_zero_attn.json")));
  QCOMPARE(both.result.Sx, both.result.S + 2);
  const ComputedProblem cross =
      compute(loadExample(QStringLiteral(":/examples/cross_attention_kdim_vdim.json")));
  QVERIFY(cross.result.L != cross.result.S);
  QVERIFY(!cross.result.config.packed_projection());
}
