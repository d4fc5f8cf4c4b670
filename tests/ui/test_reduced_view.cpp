// The window's reduced view (ComputeController + ComputeWorker): a configuration whose maps
// exceed the memory limit is computed stripe by stripe and folded to the screen; the values
// equal the block means / maxima of the full weights, the status text says so, changing the
// fold or the batch element recomputes, and a configuration too large even reduced is refused.

#include <QSignalSpy>
#include <QTest>
#include <algorithm>
#include <cmath>

#include "compute/compute_controller.hpp"
#include "mhaviz/core/forward.hpp"
#include "mhaviz/core/problem.hpp"
#include "stages/reduced_result.hpp"

using mhaviz::ui::ComputeController;
using mhaviz::ui::Reduce;
using mhaviz::ui::ResultPtr;
using mhaviz::ui::Stage;

namespace {

// L = S = 1100 with kReducedCells = 512 values a map: blocks of 3 x 3 cells (367 x 367 values).
mhaviz::Config longConfig() {
  mhaviz::Config c;
  c.embed_dim = 16;
  c.num_heads = 2;
  c.batch_size = 2;
  c.tgt_len = 1100;
  c.src_len = 1100;
  c.attn_mask_spec.kind = mhaviz::gen::MaskKind::causal;
  return c;
}
constexpr std::uint64_t kLimit = 40ULL << 20;  // every map needs 77 MiB; reduced far less

/// Waits for the next result of the controller (the test's event loop delivers it).
ResultPtr nextResult(ComputeController& c) {
  QSignalSpy spy(&c, &ComputeController::resultReady);
  if (!spy.wait(120000)) return nullptr;
  return spy.takeFirst().at(0).value<ResultPtr>();
}

/// Max |reduced - block fold of full| over every value of batch element n.
double foldError(const mhaviz::ForwardResult& reduced, const mhaviz::ForwardResult& full,
                 std::int64_t n, bool max) {
  double worst = 0.0;
  const std::int64_t bh = 3, bw = 3;
  for (std::int64_t h = 0; h < full.H; ++h) {
    for (std::int64_t r = 0; r < reduced.L; ++r) {
      for (std::int64_t c = 0; c < reduced.Sx; ++c) {
        double sum = 0.0, mx = -INFINITY;
        std::int64_t cells = 0;
        for (std::int64_t i = r * bh; i < std::min(full.L, (r + 1) * bh); ++i) {
          for (std::int64_t j = c * bw; j < std::min(full.Sx, (c + 1) * bw); ++j) {
            const double w = full.weights.value(((n * full.H + h) * full.L + i) * full.Sx + j);
            sum += w;
            mx = std::max(mx, w);
            ++cells;
          }
        }
        const double want = max ? mx : sum / static_cast<double>(cells);
        const double got =
            reduced.weights.value(((n * reduced.H + h) * reduced.L + r) * reduced.Sx + c);
        worst = std::max(worst, std::abs(got - want));
      }
    }
  }
  return worst;
}

}  // namespace

class ReducedViewTest : public QObject {
  Q_OBJECT
 private slots:
  void mapsOverTheLimitAreShownReducedAndExact() {
    ComputeController c;
    c.setMemoryLimit(kLimit);
    QSignalSpy reduced(&c, &ComputeController::reducedChanged);
    c.changeConfig(longConfig(), QStringLiteral("long"));
    QCOMPARE(c.error(), QString());
    ResultPtr result = nextResult(c);
    QVERIFY(result != nullptr);
    QCOMPARE(reduced.count(), 1);
    QCOMPARE(reduced.at(0).at(0).toString(), QStringLiteral("reduced: block mean of 3x3 cells"));
    QCOMPARE(result->L, 367);
    QCOMPARE(result->weights.shape(), (mhaviz::Shape{2, 2, 367, 367}));
    QCOMPARE(result->config.query_labels.at(2), std::string("6"));
    QVERIFY(mhaviz::ui::isReducedResult(*result));  // the cell breakdown says it is reduced

    const mhaviz::Problem p = mhaviz::make_problem(longConfig());
    const mhaviz::ForwardResult full = mhaviz::forward(p.config, p.params, p.inputs);
    QVERIFY(foldError(*result, full, 0, false) < 1e-6);

    // Block max of batch element 1: the fold and the batch element are recomputed.
    mhaviz::ui::ViewOptions view = c.view();
    view.reduce = Reduce::max;
    view.batch = 1;
    view.stage = Stage::scores;  // not in a reduced result: the view keeps the weights
    c.setView(view);
    QCOMPARE(c.view().stage, Stage::weights);
    result = nextResult(c);
    QVERIFY(result != nullptr);
    QCOMPARE(reduced.last().at(0).toString(), QStringLiteral("reduced: block max of 3x3 cells"));
    QVERIFY(foldError(*result, full, 1, true) < 1e-6);

    // Within the limit the same configuration is computed in full again.
    c.setMemoryLimit(4ULL << 30);
    c.recompute();
    result = nextResult(c);
    QVERIFY(result != nullptr);
    QCOMPARE(result->L, 1100);
    QVERIFY(!mhaviz::ui::isReducedResult(*result));
    QCOMPARE(reduced.last().at(0).toString(), QString());
  }

  void tooLargeEvenReducedIsRefused() {
    mhaviz::Config c = longConfig();
    c.attn_mask_spec.shape = mhaviz::gen::MaskShape::three_d;  // 4 x 1.2 MB of mask tensor
    const QString message = ComputeController::quickCheck(c, 4ULL << 20);
    QVERIFY2(message.startsWith(QStringLiteral("this configuration needs")), qPrintable(message));
    QVERIFY(ComputeController::quickCheck(longConfig(), kLimit).isEmpty());
  }
};

QTEST_MAIN(ReducedViewTest)
#include "test_reduced_view.moc"
