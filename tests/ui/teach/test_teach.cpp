// Teaching features without the window: every stage's maps against the core's tensors, the cell
// breakdown against the intermediates, the shape-flow table, the walk-through order and the
// bundled examples.

#include <qcustomplot.h>

#include <QRegularExpression>
#include <QTableWidget>
#include <QTest>
#include <QTextBlock>
#include <QTextDocument>
#include <cmath>
#include <cstdint>
#include <memory>

#include "mhaviz/core/forward/derived_maps.hpp"
#include "mhaviz/core/forward/forward.hpp"
#include "mhaviz/core/plan/problem.hpp"
#include "mhaviz/core/spec/shapes.hpp"
#include "render/heatmap_grid.hpp"
#include "render/result_maps.hpp"
#include "stages/param_stage.hpp"
#include "stages/stage_data.hpp"
#include "teach/cell_breakdown.hpp"
#include "teach/examples.hpp"
#include "teach/explanations.hpp"
#include "teach/stage_guide.hpp"
#include "teach/teach_docks.hpp"
#include "teach/weight_entry.hpp"

using namespace mhaviz::ui;  // NOLINT(google-build-using-namespace): test brevity

namespace {

struct Computed {
  mhaviz::Problem problem;
  mhaviz::ForwardResult result;
};

Computed compute(const mhaviz::Config& config) {
  Computed c{mhaviz::make_problem(config), {}};
  c.result = mhaviz::forward(c.problem.config, c.problem.params, c.problem.inputs);
  return c;
}

mhaviz::Config biasZeroConfig() {
  mhaviz::Config c = loadExample(QStringLiteral(":/examples/bias_kv_and_zero_attn.json"));
  c.dtype = mhaviz::DType::float64;
  return c;
}

// Element (n, h, r, c) of a (N, H, rows, cols) tensor, indexed independently of the UI code.
double at4(const mhaviz::Tensor& t, std::int64_t n, std::int64_t h, std::int64_t r,
           std::int64_t c) {
  const auto& s = t.shape();
  return t.value(((n * s[1] + h) * s[2] + r) * s[3] + c);
}

bool same(double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; }

}  // namespace

class TestTeach : public QObject {
  Q_OBJECT

 private slots:
  void everyIntermediateStageShowsTheCoreTensorPerHead() {
    mhaviz::Config config = biasZeroConfig();
    config.training = true;
    config.dropout = 0.3;
    const Computed c = compute(config);
    const mhaviz::ForwardResult& r = c.result;
    QVERIFY(r.weights_before_dropout.has_value());
    const mhaviz::Tensor raw = mhaviz::derived_all(r, mhaviz::DerivedMap::raw_scores);
    const mhaviz::Tensor mask = mhaviz::derived_all(r, mhaviz::DerivedMap::mask);
    const mhaviz::Tensor scores = mhaviz::derived_all(r, mhaviz::DerivedMap::scores);
    const std::pair<Stage, const mhaviz::Tensor*> perHead[] = {
        {Stage::q, &r.q},
        {Stage::k, &r.k},
        {Stage::v, &r.v},
        {Stage::raw_scores, &raw},
        {Stage::mask, &mask},
        {Stage::scores, &scores},
        {Stage::weights_before_dropout, &*r.weights_before_dropout},
        {Stage::weights, &r.weights},
        {Stage::head_output, &r.head_output}};
    for (std::int64_t n = 0; n < r.N; ++n) {
      for (const auto& [stage, tensor] : perHead) {
        ViewOptions view;
        view.batch = static_cast<int>(n);
        view.stage = stage;
        view.showAverage = false;
        const StageData data = extractStage(r, view);
        QCOMPARE(static_cast<std::int64_t>(data.maps.size()), r.H);
        for (std::int64_t h = 0; h < r.H; ++h) {
          const MapData& m = data.maps[static_cast<std::size_t>(h)];
          QCOMPARE(static_cast<std::int64_t>(m.rows), tensor->shape()[2]);
          QCOMPARE(static_cast<std::int64_t>(m.cols), tensor->shape()[3]);
          for (int i = 0; i < m.rows; ++i) {
            for (int j = 0; j < m.cols; ++j) {
              QVERIFY2(same(m.values[static_cast<std::size_t>(i * m.cols + j)],
                            at4(*tensor, n, h, i, j)),
                       qPrintable(stageName(stage)));
            }
          }
        }
      }
      for (Stage stage : {Stage::merged, Stage::output}) {
        ViewOptions view;
        view.batch = static_cast<int>(n);
        view.stage = stage;
        const StageData data = extractStage(r, view);
        const mhaviz::Tensor& t = stage == Stage::merged ? r.merged : r.output;
        QCOMPARE(data.maps.size(), std::size_t{1});
        for (std::int64_t i = 0; i < r.L; ++i) {
          for (std::int64_t e = 0; e < r.E; ++e) {
            QVERIFY(same(data.maps[0].values[static_cast<std::size_t>(i * r.E + e)],
                         t.value((n * r.L + i) * r.E + e)));
          }
        }
      }
    }
    // The k and v maps mark their last two rows as bias_k and zero.
    ViewOptions kView;
    kView.stage = Stage::k;
    const StageData k = extractStage(r, kView);
    QCOMPARE(k.maps[0].rowsInfo[static_cast<std::size_t>(r.Sx - 2)].kind, mhaviz::KeyKind::bias_k);
    QCOMPARE(k.maps[0].rowsInfo[static_cast<std::size_t>(r.Sx - 1)].kind, mhaviz::KeyKind::zero);
  }

  void theGridShowsTheSelectedHeadOfTheScores() {
    const Computed c = compute(biasZeroConfig());
    auto shared = std::make_shared<const mhaviz::ForwardResult>(c.result);
    HeatmapGrid grid;
    grid.resize(800, 600);
    ViewOptions view;
    view.stage = Stage::scores;
    view.batch = 1;
    view.soloHead = 1;
    showResult(grid, shared, view);
    QCOMPARE(grid.mapCount(), 1);
    const MapData& m = grid.stageData().maps.at(0);
    const mhaviz::Tensor scores = mhaviz::derived_all(c.result, mhaviz::DerivedMap::scores);
    for (int i = 0; i < m.rows; ++i) {
      for (int j = 0; j < m.cols; ++j) {
        QVERIFY(same(m.values[static_cast<std::size_t>(i * m.cols + j)], at4(scores, 1, 1, i, j)));
      }
    }
  }

  void parameterStagesShowTheHeadSlicesOfTheWeights() {
    for (bool packed : {true, false}) {
      mhaviz::Config config;
      config.embed_dim = 8;
      config.num_heads = 2;
      if (!packed) {
        config.kdim = 5;
        config.vdim = 3;
      }
      const Computed c = compute(config);
      const std::int64_t E = 8, hd = 4;
      ViewOptions view;
      view.stage = Stage::in_proj_weight;
      const StageData data = extractStage(c.result, view);
      QCOMPARE(data.maps.size(), std::size_t{6});  // W_q, W_k, W_v x 2 heads
      QVERIFY(data.isSigned);
      const mhaviz::Params& p = c.problem.params;
      for (int block = 0; block < 3; ++block) {
        const mhaviz::Tensor* w = nullptr;
        std::int64_t base = 0;
        if (packed) {
          w = &*p.in_proj_weight;
          base = block * E;
        } else {
          w = block == 0 ? &*p.q_proj_weight : block == 1 ? &*p.k_proj_weight : &*p.v_proj_weight;
        }
        const std::int64_t cols = w->shape()[1];
        for (std::int64_t h = 0; h < 2; ++h) {
          const MapData& m = data.maps[static_cast<std::size_t>(block * 2 + h)];
          QCOMPARE(static_cast<std::int64_t>(m.rows), hd);
          QCOMPARE(static_cast<std::int64_t>(m.cols), cols);
          QVERIFY2(m.title.contains(QStringLiteral("head %1").arg(h)), qPrintable(m.title));
          QVERIFY2(m.title.contains(packed ? QStringLiteral("in_proj_weight")
                                           : QStringLiteral("_proj_weight")),
                   qPrintable(m.title));
          for (std::int64_t r = 0; r < hd; ++r) {
            for (std::int64_t col = 0; col < cols; ++col) {
              QCOMPARE(m.values[static_cast<std::size_t>(r * cols + col)],
                       w->value((base + h * hd + r) * cols + col));
            }
          }
        }
      }
      view.stage = Stage::out_proj_weight;
      const StageData out = extractStage(c.result, view);
      QCOMPARE(out.maps.size(), std::size_t{1});
      for (std::int64_t i = 0; i < E * E; ++i) {
        QCOMPARE(out.maps[0].values[static_cast<std::size_t>(i)], p.out_proj_weight->value(i));
      }
    }
  }

  // Issue 28 item 8: W_q / W_k / W_v and out_proj.weight called their rows "query" and their
  // columns "key". A row of a weight matrix makes an output feature, a column reads an input
  // feature: the axis titles, the row labels and the breakdown of an entry say so.
  void weightMatricesNameOutputAndInputFeatures() {
    mhaviz::Config config;
    config.embed_dim = 8;
    config.num_heads = 2;
    config.kdim = 5;  // k_proj_weight is (E, kdim): its columns are key features, not keys
    const Computed c = compute(config);
    auto shared = std::make_shared<const mhaviz::ForwardResult>(c.result);
    HeatmapGrid grid;
    grid.resize(900, 700);
    grid.setAxisTitles(true);
    for (Stage stage : {Stage::in_proj_weight, Stage::out_proj_weight}) {
      ViewOptions view;
      view.stage = stage;
      view.queryLabels = {QStringLiteral("The"), QStringLiteral("cat"), QStringLiteral("sat")};
      showResult(grid, shared, view);
      QStringList titles, rowTicks;
      for (QCPAxisRect* rect : grid.plot()->axisRects()) {
        for (QCPAxis* axis : rect->axes()) {
          if (!axis->label().isEmpty()) titles << axis->label();
        }
        auto ticker = rect->axis(QCPAxis::atLeft)->ticker().dynamicCast<QCPAxisTickerText>();
        if (ticker) {
          for (const QString& t : ticker->ticks()) rowTicks << t;
        }
      }
      QVERIFY2(titles.contains(QStringLiteral("output feature")), qPrintable(titles.join(u',')));
      QVERIFY2(titles.contains(QStringLiteral("input feature")), qPrintable(titles.join(u',')));
      QVERIFY2(!titles.contains(QStringLiteral("query")), qPrintable(titles.join(u',')));
      QVERIFY2(!titles.contains(QStringLiteral("key")), qPrintable(titles.join(u',')));
      QVERIFY2(!rowTicks.contains(QStringLiteral("cat")), qPrintable(rowTicks.join(u',')));
      // Head 1's slice of W_q is output features hd .. 2hd-1, and its rows say so.
      if (stage == Stage::in_proj_weight) {
        QVERIFY2(rowTicks.contains(QString::number(2 * c.result.hd - 1)),
                 qPrintable(rowTicks.join(u',')));
      }
    }
    // The breakdown of W_k head 1, row 2, column 4: k_proj_weight[1*hd + 2, 4], the key input's
    // feature 4 making feature 6 of k.
    ViewOptions view;
    view.stage = Stage::in_proj_weight;
    const WeightEntry e = weightEntry(c.result, view, /*map W_k head 1*/ 3, 2, 4);
    const std::int64_t hd = c.result.hd;
    QCOMPARE(e.matrix, QStringLiteral("k_proj_weight"));
    QCOMPARE(e.head, std::int64_t{1});
    QCOMPARE(e.outFeature, hd + 2);
    QCOMPARE(e.inFeature, std::int64_t{4});
    QCOMPARE(e.value, c.problem.params.k_proj_weight->value((hd + 2) * 5 + 4));
    QTextDocument page;
    page.setHtml(weightEntryHtml(e));
    const QString text = page.toPlainText().simplified();
    QVERIFY2(
        text.contains(QStringLiteral("output feature: this row makes feature %1 of k").arg(hd + 2)),
        qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("reads feature 4 of the key input")), qPrintable(text));
    QVERIFY(!text.contains(QStringLiteral("query")));
    // out_proj.weight: column c reads feature c of the heads concatenated (head c / hd).
    view.stage = Stage::out_proj_weight;
    const WeightEntry o = weightEntry(c.result, view, 0, 3, 5);
    QCOMPARE(o.value, c.problem.params.out_proj_weight->value(3 * 8 + 5));
    page.setHtml(weightEntryHtml(o));
    QVERIFY2(page.toPlainText().simplified().contains(
                 QStringLiteral("head %1's dimension %2").arg(5 / hd).arg(5 % hd)),
             qPrintable(page.toPlainText()));
  }

  // Issue 28 item 13: the example used identity weights, so bias_k was a zero vector and its
  // column looked like the zero key's. Its weights now tell them apart: bias_k's raw score is
  // not 0 and its weight differs from the zero key's.
  void theBiasKvExampleTellsBiasKFromTheZeroKey() {
    const Computed c =
        compute(loadExample(QStringLiteral(":/examples/bias_kv_and_zero_attn.json")));
    const mhaviz::ForwardResult& r = c.result;
    QCOMPARE(r.columns[static_cast<std::size_t>(r.Sx - 2)].kind, mhaviz::KeyKind::bias_k);
    QCOMPARE(r.columns[static_cast<std::size_t>(r.Sx - 1)].kind, mhaviz::KeyKind::zero);
    const mhaviz::Tensor raw = mhaviz::derived_all(r, mhaviz::DerivedMap::raw_scores);
    double rawSpread = 0, weightSpread = 0;
    for (std::int64_t h = 0; h < r.H; ++h) {
      for (std::int64_t i = 0; i < r.L; ++i) {
        const double biasRaw = at4(raw, 0, h, i, r.Sx - 2);
        QCOMPARE(at4(raw, 0, h, i, r.Sx - 1), 0.0);  // the zero key: exactly 0
        rawSpread = std::max(rawSpread, std::abs(biasRaw));
        weightSpread = std::max(weightSpread, std::abs(at4(r.weights, 0, h, i, r.Sx - 2) -
                                                       at4(r.weights, 0, h, i, r.Sx - 1)));
      }
    }
    QVERIFY2(rawSpread > 0.5, qPrintable(QString::number(rawSpread)));
    QVERIFY2(weightSpread > 0.05, qPrintable(QString::number(weightSpread)));
  }

  // Issue 28 item 14: the help said bias_k is appended, not prepended, but not what it is: a key
  // with no query row that never attends, a learned null key / attention sink. The facts from
  // the core, then the help page and the breakdown of a bias_k cell.
  void biasKHelpSaysItIsAKeyWithoutAQuery() {
    mhaviz::Config config;
    config.embed_dim = 8;
    config.num_heads = 2;
    config.add_bias_kv = true;
    config.attn_mask_spec.kind = mhaviz::gen::MaskKind::causal;
    const Computed c = compute(config);
    const mhaviz::ForwardResult& r = c.result;
    QCOMPARE(r.L, config.tgt_len);  // no query row for bias_k
    QCOMPARE(r.q.size(2), config.tgt_len);
    QCOMPARE(r.weights.size(2), config.tgt_len);
    QCOMPARE(r.Sx, r.S + 1);  // one key column, the last
    QCOMPARE(r.columns.back().kind, mhaviz::KeyKind::bias_k);
    for (std::int64_t i = 0; i < r.L; ++i) {
      QCOMPARE(mhaviz::derived_value(r, mhaviz::DerivedMap::mask, 0, 0, i, r.S), 0.0);
      QVERIFY(at4(r.weights, 0, 0, i, r.S) > 0.0);  // every query can put weight there
    }
    const auto plain = [](const QString& html) {
      QTextDocument doc;
      doc.setHtml(html);
      return doc.toPlainText().simplified();
    };
    // The add_bias_kv tooltip states the same (window test: addBiasKvTooltipSaysWhatBiasKIs).
    const QStringList texts = {plain(explanationPages().front().html),
                               plain(breakdownHtml(breakdownCell(r, 0, 0, 2, r.S)))};
    for (const QString& text : texts) {
      QVERIFY2(text.contains(QStringLiteral("at the end")), qPrintable(text));
      QVERIFY2(text.contains(QStringLiteral("no query row")), qPrintable(text));
      QVERIFY2(text.contains(QStringLiteral("never attends")), qPrintable(text));
      QVERIFY2(text.contains(QStringLiteral("\"null\" key")), qPrintable(text));
      QVERIFY2(text.contains(QStringLiteral("attention sink")), qPrintable(text));
    }
    QVERIFY(texts[0].contains(QStringLiteral("not prepended")));
  }

  void breakdownOfANormalCellReproducesTheWeight() {
    const Computed c = compute(biasZeroConfig());
    const mhaviz::ForwardResult& r = c.result;
    const std::int64_t n = 0, h = 1, i = 4, j = 2;
    const CellBreakdown b = breakdownCell(r, n, h, i, j);
    QCOMPARE(b.column.kind, mhaviz::KeyKind::source);
    QCOMPARE(static_cast<std::int64_t>(b.q.size()), r.hd);
    for (std::int64_t d = 0; d < r.hd; ++d) {
      QCOMPARE(b.q[static_cast<std::size_t>(d)], at4(r.q, n, h, i, d));
      QCOMPARE(b.k[static_cast<std::size_t>(d)], at4(r.k, n, h, j, d));
    }
    QCOMPARE(b.rawStored, at4(mhaviz::derived_all(r, mhaviz::DerivedMap::raw_scores), n, h, i, j));
    QCOMPARE(b.maskTerm, at4(mhaviz::derived_all(r, mhaviz::DerivedMap::mask), n, h, i, j));
    QCOMPARE(b.scoreStored, at4(mhaviz::derived_all(r, mhaviz::DerivedMap::scores), n, h, i, j));
    QCOMPARE(b.weightStored, at4(r.weights, n, h, i, j));
    QVERIFY(agrees(b.rawRecomputed, b.rawStored, 1e-9));
    QVERIFY(agrees(b.scoreRecomputed, b.scoreStored, 1e-9));
    QVERIFY(std::abs(b.weightRecomputed - b.weightStored) <= 1e-6 * std::abs(b.weightStored));
    QVERIFY(b.weightStored > 0);
    const QString html = breakdownHtml(b);
    QVERIFY(!html.contains(QStringLiteral("differ")));
    QVERIFY(html.contains(QString::number(b.rowSum, 'g', 8)));
  }

  void breakdownOfAMaskedCellIsZero() {
    const Computed c = compute(biasZeroConfig());
    const CellBreakdown b = breakdownCell(c.result, 0, 0, 1, 4);  // causal: key 4 > query 1
    QVERIFY(std::isinf(b.maskTerm) && b.maskTerm < 0);
    QCOMPARE(b.weightStored, 0.0);
    QCOMPARE(b.weightRecomputed, 0.0);
  }

  void breakdownOfTheBiasKColumn() {
    const Computed c = compute(biasZeroConfig());
    const mhaviz::ForwardResult& r = c.result;
    // Batch element 1 is fully padded: only bias_k and the zero key are left.
    const std::int64_t j = r.Sx - 2;
    const CellBreakdown b = breakdownCell(r, 1, 0, 3, j);
    QCOMPARE(b.column.kind, mhaviz::KeyKind::bias_k);
    QCOMPARE(b.maskTerm, 0.0);
    QVERIFY(!b.rowFullyMasked);
    QCOMPARE(b.weightStored, at4(r.weights, 1, 0, 3, j));
    QVERIFY(std::abs(b.weightRecomputed - b.weightStored) <= 1e-6 * std::abs(b.weightStored));
    QTextDocument page;
    page.setHtml(breakdownHtml(b));
    const QString text = page.toPlainText().simplified();
    for (const char* fact : {"appended at the end, after the in-projection, by add_bias_kv",
                             "never masked", "no query row"}) {
      QVERIFY2(text.contains(QLatin1String(fact)), qPrintable(text));
    }
  }

  void breakdownOfTheZeroColumn() {
    const Computed c = compute(biasZeroConfig());
    const mhaviz::ForwardResult& r = c.result;
    const std::int64_t j = r.Sx - 1;
    const CellBreakdown b = breakdownCell(r, 0, 1, 2, j);
    QCOMPARE(b.column.kind, mhaviz::KeyKind::zero);
    for (double x : b.k) QCOMPARE(x, 0.0);
    QCOMPARE(b.dot, 0.0);
    QCOMPARE(b.rawStored, 0.0);
    QCOMPARE(b.weightStored, at4(r.weights, 0, 1, 2, j));
    QVERIFY(std::abs(b.weightRecomputed - b.weightStored) <= 1e-6 * std::abs(b.weightStored));
    QVERIFY(breakdownHtml(b).contains(QStringLiteral("exactly 0 (q . 0 = 0)")));
  }

  void breakdownOfANanCellExplainsTheFullyMaskedRow() {
    mhaviz::Config config = loadExample(QStringLiteral(":/examples/padding_fully_padded.json"));
    config.dtype = mhaviz::DType::float64;
    const Computed c = compute(config);
    const CellBreakdown b = breakdownCell(c.result, 2, 1, 0, 3);  // batch 2: every key padded
    QVERIFY(b.rowFullyMasked);
    QVERIFY(std::isnan(at4(c.result.weights, 2, 1, 0, 3)));
    QVERIFY(std::isnan(b.weightStored));
    QVERIFY(std::isnan(b.weightRecomputed));
    const QString html = breakdownHtml(b);
    QVERIFY(html.contains(QStringLiteral("0/0 = NaN")));
    QVERIFY(html.contains(QStringLiteral("add_zero_attn")));
    QVERIFY(!html.contains(QStringLiteral("differ")));
  }

  void breakdownInFloat32AgreesToRounding() {
    mhaviz::Config config = biasZeroConfig();
    config.dtype = mhaviz::DType::float32;
    const Computed c = compute(config);
    for (std::int64_t j = 0; j < c.result.Sx; ++j) {
      const CellBreakdown b = breakdownCell(c.result, 0, 0, 5, j);
      QVERIFY(agrees(b.weightRecomputed, b.weightStored, b.tolerance));
      QVERIFY(!breakdownHtml(b).contains(QStringLiteral("differ")));
    }
  }

  void averageCellListsEveryHead() {
    const Computed c = compute(biasZeroConfig());
    const QString html = averageHtml(c.result, 0, 3, 1, false);
    double sum = 0;
    for (std::int64_t h = 0; h < c.result.H; ++h) {
      const double w = at4(c.result.weights, 0, h, 3, 1);
      sum += w;
      QVERIFY(html.contains(QString::number(w, 'g', 8)));
    }
    QVERIFY(html.contains(QString::number(sum / static_cast<double>(c.result.H), 'g', 8)));
  }

  void shapeTableEqualsShapeFlow() {
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
  void helpTextStatesTheKeyCountsAndTheMisconception() {
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

  void walkThroughFollowsPyTorchsOrder() {
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
    const Computed c = compute(mhaviz::Config{});
    QVERIFY(!walkStages(&c.result).contains(Stage::weights_before_dropout));
    QCOMPARE(stepFrom(Stage::scores, +1, &c.result), Stage::weights);
  }

  void everyBundledExampleParsesAndComputes() {
    const QList<ExampleSession> examples = exampleSessions();
    QCOMPARE(examples.size(), 6);
    for (const ExampleSession& example : examples) {
      mhaviz::Config config;
      try {
        config = loadExample(example.resource);
        const Computed c = compute(config);
        QVERIFY(c.result.N >= 1);
      } catch (const std::exception& e) {
        QFAIL(qPrintable(example.resource + QStringLiteral(": ") + QString::fromUtf8(e.what())));
      }
    }
    const Computed both =
        compute(loadExample(QStringLiteral(":/examples/bias_kv_and_zero_attn.json")));
    QCOMPARE(both.result.Sx, both.result.S + 2);
    const Computed cross =
        compute(loadExample(QStringLiteral(":/examples/cross_attention_kdim_vdim.json")));
    QVERIFY(cross.result.L != cross.result.S);
    QVERIFY(!cross.result.config.packed_projection());
  }
};

QTEST_MAIN(TestTeach)
#include "test_teach.moc"
