// The text view's layout without a window (tokens/text_shades.hpp): each key's shade against
// the weights of the query shown, masked keys, the bias_k / zero chips at the end, one text for
// self-attention and two for cross-attention, wrapping; and the same against a real forward
// pass (tokens/text_view_picture.hpp).

#include <QApplication>
#include <QTest>
#include <cmath>
#include <limits>

#include "../render/test_render_common.hpp"
#include "mhaviz/core/spec/config.hpp"
#include "stages/stage_data.hpp"
#include "tokens/text_shades.hpp"
#include "tokens/text_view_picture.hpp"

using mhaviz::KeyKind;
using mhaviz::ui::MapData;
using mhaviz::ui::StageData;
using mhaviz::ui::TextHit;
using mhaviz::ui::TextShadeOptions;
using mhaviz::ui::TextShades;

namespace {

MapData makeMap(int rows, int cols, std::vector<double> values, std::vector<KeyKind> kinds = {},
                QStringList labels = {}) {
  MapData map;
  map.rows = rows;
  map.cols = cols;
  map.values = std::move(values);
  for (int j = 0; j < cols; ++j) {
    const KeyKind kind = static_cast<std::size_t>(j) < kinds.size()
                             ? kinds[static_cast<std::size_t>(j)]
                             : KeyKind::source;
    QString label = j < labels.size() ? labels[j] : QString::number(j);
    if (kind == KeyKind::bias_k) label = QStringLiteral("bias_k");
    if (kind == KeyKind::zero) label = QStringLiteral("zero");
    map.columns.push_back({label, kind});
  }
  return map;
}

TextShadeOptions optionsFor(int query, bool oneText = true, double width = 600) {
  TextShadeOptions options;
  options.query = query;
  options.oneText = oneText;
  options.width = width;
  options.font = QApplication::font();
  options.queryHeading = QStringLiteral("queries");
  options.keyHeading = QStringLiteral("keys");
  return options;
}

}  // namespace

class TestTextShades : public QObject {
  Q_OBJECT

 private slots:
  // Each key's shade is its weight over the largest weight of the query's row.
  void shadesAreTheWeightsOverTheLargest() {
    StageData data;
    data.maps.push_back(makeMap(2, 4, {0.7, 0.1, 0.1, 0.1, 0.1, 0.4, 0.2, 0.3}));
    const TextShades shades = mhaviz::ui::layoutTextShades(data, {}, optionsFor(1));
    QCOMPARE(shades.query, 1);
    QCOMPARE(shades.largest, 0.4);
    QCOMPARE(shades.keys.size(), std::size_t{4});
    for (int j = 0; j < 4; ++j) {
      const auto& k = shades.keys[static_cast<std::size_t>(j)];
      QCOMPARE(k.weight, data.maps[0].valueAt(1, j));
      QCOMPARE(k.shade, data.maps[0].valueAt(1, j) / 0.4);
    }
    QCOMPARE(shades.keys[1].shade, 1.0);
    // No query: no weights, no shades.
    const TextShades plain = mhaviz::ui::layoutTextShades(data, {}, optionsFor(-1));
    QCOMPARE(plain.query, -1);
    for (const auto& k : plain.keys) {
      QVERIFY(std::isnan(k.weight));
      QCOMPARE(k.shade, 0.0);
    }
  }

  // A masked key has weight 0, no shade and says it is masked; a NaN row shades nothing.
  void maskedKeysAndNanRows() {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    StageData data;
    MapData map = makeMap(2, 3, {1.0, 0.0, 0.0, nan, nan, nan});
    map.masked = {0, 1, 1, 1, 1, 1};
    data.maps.push_back(map);
    TextShades shades = mhaviz::ui::layoutTextShades(data, {}, optionsFor(0));
    QVERIFY(!shades.keys[0].masked);
    QVERIFY(shades.keys[1].masked);
    QCOMPARE(shades.keys[1].weight, 0.0);
    QCOMPARE(shades.keys[1].shade, 0.0);
    QCOMPARE(shades.keys[0].shade, 1.0);
    QVERIFY(!shades.nan);
    shades = mhaviz::ui::layoutTextShades(data, {}, optionsFor(1));
    QVERIFY(shades.nan);
    for (const auto& k : shades.keys) QCOMPARE(k.shade, 0.0);
  }

  // The bias_k and zero keys are chips at the end saying their weight ("bias_k 0.31"), after a
  // wider gap than between tokens; they are no query.
  void extraKeysAreChipsAtTheEnd() {
    StageData data;
    data.maps.push_back(
        makeMap(2, 4, {0.3, 0.3, 0.31, 0.09, 0.2, 0.5, 0.2, 0.1},
                {KeyKind::source, KeyKind::source, KeyKind::bias_k, KeyKind::zero}));
    const TextShades shades = mhaviz::ui::layoutTextShades(data, {}, optionsFor(0));
    QCOMPARE(shades.firstExtraKey, 2);
    QCOMPARE(shades.keys[2].text, QStringLiteral("bias_k 0.31"));
    QCOMPARE(shades.keys[3].text, QStringLiteral("zero 0.09"));
    QCOMPARE(shades.keys[0].text, QStringLiteral("0"));
    QCOMPARE(shades.keys[2].shade, 1.0);  // the strongest key of the row is bias_k
    const double gap = shades.keys[1].box.left() - shades.keys[0].box.right();
    const double extraGap = shades.keys[2].box.left() - shades.keys[1].box.right();
    QVERIFY(extraGap > gap);
    QCOMPARE(mhaviz::ui::queryOfHit(shades, {TextHit::Side::key, 2}), -1);
    QCOMPARE(mhaviz::ui::queryOfHit(shades, {TextHit::Side::key, 1}), 1);
  }

  // Self-attention (as many queries as source keys, the same labels) is one text whose tokens
  // are the queries; cross-attention shows the queries above the keys.
  void oneTextForSelfTwoForCrossAttention() {
    StageData self;
    self.maps.push_back(makeMap(2, 3, {0.5, 0.5, 0.0, 0.2, 0.3, 0.5},
                                {KeyKind::source, KeyKind::source, KeyKind::zero},
                                {QStringLiteral("a"), QStringLiteral("b")}));
    QVERIFY(mhaviz::ui::oneTextFor(self, {QStringLiteral("a"), QStringLiteral("b")}));
    QVERIFY(!mhaviz::ui::oneTextFor(self, {QStringLiteral("a"), QStringLiteral("c")}));
    QVERIFY(!mhaviz::ui::oneTextFor(self, {}));  // positions against labels "a", "b"

    StageData cross;
    cross.maps.push_back(makeMap(2, 3, {0.2, 0.3, 0.5, 0.6, 0.3, 0.1}));
    QVERIFY(!mhaviz::ui::oneTextFor(cross, {}));
    const TextShades shades = mhaviz::ui::layoutTextShades(
        cross, {QStringLiteral("le"), QStringLiteral("chat")}, optionsFor(1, false));
    QCOMPARE(shades.queries.size(), std::size_t{2});
    QCOMPARE(shades.queries[1].label, QStringLiteral("chat"));
    QCOMPARE(shades.keyHeadingText, QStringLiteral("keys"));
    for (const auto& q : shades.queries) {
      for (const auto& k : shades.keys) QVERIFY(q.box.bottom() < k.box.top());
    }
    QVERIFY(shades.queryHeading.bottom() <= shades.queries[0].box.top());
    QVERIFY(shades.keyHeading.bottom() <= shades.keys[0].box.top());
    const TextHit hit = mhaviz::ui::hitText(shades, shades.queries[0].box.center());
    QCOMPARE(hit, (TextHit{TextHit::Side::query, 0}));
    QCOMPARE(mhaviz::ui::queryOfHit(shades, hit), 0);
    // A key of a cross-attention text is no query.
    const TextHit key = mhaviz::ui::hitText(shades, shades.keys[2].box.center());
    QCOMPARE(key, (TextHit{TextHit::Side::key, 2}));
    QCOMPARE(mhaviz::ui::queryOfHit(shades, key), -1);
    QCOMPARE(shades.keys[0].shade, 1.0);  // query 1 gives key 0 its largest weight
  }

  // The text wraps at the width: in reading order, no chip past the width.
  void theTextWrapsAtTheWidth() {
    const int n = 30;
    StageData data;
    data.maps.push_back(makeMap(n, n, std::vector<double>(n * n, 1.0 / n)));
    const double width = 160;
    const TextShades shades = mhaviz::ui::layoutTextShades(data, {}, optionsFor(0, true, width));
    QVERIFY(shades.keys.back().box.top() > shades.keys.front().box.top());  // several lines
    for (std::size_t j = 0; j < shades.keys.size(); ++j) {
      QVERIFY(shades.keys[j].box.right() <= width + 1e-9);
      if (j == 0) continue;
      const QRectF a = shades.keys[j - 1].box;
      const QRectF b = shades.keys[j].box;
      QVERIFY(b.top() > a.top() || (b.top() == a.top() && b.left() > a.right()));
    }
    QVERIFY(shades.height >= shades.keys.back().box.bottom());
  }

  // From a real forward pass with bias_k and zero: one map per head and the average last; the
  // shades of head 1 and of the average are their weights over the row's largest.
  void aForwardPassShadesByItsWeights() {
    mhaviz::Config config;
    config.embed_dim = 8;
    config.num_heads = 2;
    config.tgt_len = 3;
    config.src_len = 5;
    config.add_bias_kv = true;
    config.add_zero_attn = true;
    const mhaviz::ForwardResult result = mhaviz::ui::test::computeResult(config);
    const mhaviz::ui::ViewOptions view;
    const StageData data = mhaviz::ui::textViewData(result, view);
    QCOMPARE(data.maps.size(), std::size_t{3});
    for (int head : {1, -1}) {
      mhaviz::ui::TextViewChoice choice{head, 2};
      const int map = mhaviz::ui::textViewMap(view, choice, data);
      QCOMPARE(map, head >= 0 ? head : 2);
      const TextShadeOptions options =
          mhaviz::ui::textShadeOptions(data, view, choice, QApplication::font(), 500, 0);
      QVERIFY(!options.oneText);  // L = 3 queries, S = 5 keys
      const TextShades shades = mhaviz::ui::layoutTextShades(data, {}, options);
      QCOMPARE(shades.keys.size(), std::size_t{7});
      QCOMPARE(shades.firstExtraKey, 5);
      double largest = 0;
      std::vector<double> w(7);
      for (int j = 0; j < 7; ++j) {
        const auto at = [&](int h) { return result.weights.value((h * 3 + 2) * 7 + j); };
        w[static_cast<std::size_t>(j)] = head >= 0 ? at(head) : (at(0) + at(1)) / 2;
        largest = std::max(largest, w[static_cast<std::size_t>(j)]);
      }
      for (int j = 0; j < 7; ++j) {
        const auto& k = shades.keys[static_cast<std::size_t>(j)];
        QVERIFY(std::abs(k.weight - w[static_cast<std::size_t>(j)]) < 1e-12);
        QVERIFY(std::abs(k.shade - w[static_cast<std::size_t>(j)] / largest) < 1e-12);
      }
    }
    // No query chosen: the last one.
    QCOMPARE(mhaviz::ui::textViewQuery({}, data), 2);
    // The grid's solo head wins over the choice.
    mhaviz::ui::ViewOptions solo;
    solo.soloHead = 0;
    QCOMPARE(mhaviz::ui::textViewMap(solo, {1, 0}, data), 0);
  }
};

QTEST_MAIN(TestTextShades)
#include "test_text_shades.moc"
