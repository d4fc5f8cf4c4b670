// The head view's lines against a real forward pass (bias_k, the zero key, the limit), and its
// picture (tokens/head_view_picture.hpp, line_raster.hpp): narrow pictures, raster lines, bands,
// the label column, the head chips (TestHeadLines's slots, test_head_lines.hpp).

#include <QApplication>
#include <QFontMetricsF>
#include <QImage>
#include <QTest>
#include <QToolButton>
#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <set>
#include <span>
#include <utility>

#include "../render/test_render_common.hpp"
#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/spec/config.hpp"
#include "stages/stage_data.hpp"
#include "test_head_lines.hpp"
#include "tokens/head_lines.hpp"
#include "tokens/head_view.hpp"
#include "tokens/head_view_picture.hpp"
#include "tokens/line_raster.hpp"

using mhaviz::KeyKind;
using mhaviz::ui::HeadLine;
using mhaviz::ui::HeadLines;
using mhaviz::ui::HeadLinesOptions;
using mhaviz::ui::StageData;
using mhaviz::ui::test::allHeads;
using mhaviz::ui::test::makeMap;

void TestHeadLines::aForwardPassWithBiasKAndZeroDrawsItsWeights() {
  mhaviz::Config config;
  config.embed_dim = 8;
  config.num_heads = 2;
  config.tgt_len = 4;
  config.src_len = 5;
  config.add_bias_kv = true;
  config.add_zero_attn = true;
  const mhaviz::ForwardResult result = mhaviz::ui::test::computeResult(config, true);
  mhaviz::ui::ViewOptions view;
  const StageData data = mhaviz::ui::headViewData(result, view);
  QCOMPARE(data.maps.size(), std::size_t{2});
  const HeadLines lines = mhaviz::ui::layoutHeadLines(data, {}, allHeads(data));
  QCOMPARE(lines.keys.size(), std::size_t{7});  // S + bias_k + zero
  QCOMPARE(lines.firstExtraKey, 5);
  QCOMPARE(lines.keys[5].kind, KeyKind::bias_k);
  QCOMPARE(lines.keys[6].kind, KeyKind::zero);
  // Every line's weight is the pass's weight; the causal mask's pairs (j > i) have none.
  std::size_t expected = 0;
  for (std::int64_t h = 0; h < 2; ++h) {
    for (std::int64_t i = 0; i < 4; ++i) {
      for (std::int64_t j = 0; j < 7; ++j) {
        const double w = result.weights.value(((0 * 2 + h) * 4 + i) * 7 + j);
        const bool maskedKey = j < 5 && j > i;
        if (w > 0 && !maskedKey) ++expected;
      }
    }
  }
  QCOMPARE(lines.lines.size(), expected);
  for (const HeadLine& l : lines.lines) {
    QVERIFY(!(l.key < 5 && l.key > l.query));
    QCOMPARE(l.alpha, result.weights.value(((0 * 2 + l.head) * 4 + l.query) * 7 + l.key));
  }
  // The grid's solo head is the head view's only head.
  view.soloHead = 1;
  QCOMPARE(mhaviz::ui::headsShown(view, 2, {}), std::vector<int>{1});
  view.soloHead = -1;
  QCOMPARE(mhaviz::ui::headsShown(view, 2, {false, true}), std::vector<int>{1});
  QCOMPARE(mhaviz::ui::headsShown(view, 2, {}), (std::vector<int>{0, 1}));
}

// add_bias_kv alone appends exactly the bias_k row, add_zero_attn alone exactly the zero
// row, each set apart at the end of the key column; neither, no extra row.
void TestHeadLines::biasKAloneAndZeroAloneGiveExactlyTheirRows() {
  for (const auto& [bias, zero] :
       {std::pair{true, false}, std::pair{false, true}, std::pair{false, false}}) {
    mhaviz::Config config;
    config.embed_dim = 8;
    config.num_heads = 2;
    config.tgt_len = 3;
    config.src_len = 4;
    config.add_bias_kv = bias;
    config.add_zero_attn = zero;
    const mhaviz::ForwardResult result = mhaviz::ui::test::computeResult(config);
    const StageData data = mhaviz::ui::headViewData(result, {});
    const HeadLines lines = mhaviz::ui::layoutHeadLines(data, {}, allHeads(data));
    const std::size_t extra = (bias ? 1 : 0) + (zero ? 1 : 0);
    QCOMPARE(lines.keys.size(), 4 + extra);
    QCOMPARE(lines.queries.size(), std::size_t{3});
    QCOMPARE(lines.firstExtraKey, extra > 0 ? 4 : -1);
    if (extra > 0) {
      const KeyKind kind = bias ? KeyKind::bias_k : KeyKind::zero;
      QCOMPARE(lines.keys[4].kind, kind);
      QCOMPARE(lines.keys[4].label, bias ? QStringLiteral("bias_k") : QStringLiteral("zero"));
      QVERIFY(lines.separatorY > lines.keys[3].box.bottom());
      // Every query draws its line into the extra key (its weight is above 0 everywhere).
      std::set<int> into;
      for (const HeadLine& l : lines.lines) {
        if (l.key == 4) into.insert(l.query * 2 + l.head);
      }
      QCOMPARE(into.size(), std::size_t{6});
    }
    for (const auto& k : lines.keys) {
      if (&k - lines.keys.data() < 4) QCOMPARE(k.kind, KeyKind::source);
    }
  }
}

// In a narrow picture the columns never cross: the notes shrink to one column (the strongest
// head's weight), and below that the picture is made wider than asked (the dock scrolls).
void TestHeadLines::narrowPicturesKeepQueriesLeftOfKeys() {
  StageData data;
  for (int h = 0; h < 8; ++h) data.maps.push_back(makeMap(3, 3, std::vector<double>(9, 1.0 / 3)));
  const std::vector<int> heads{0, 1, 2, 3, 4, 5, 6, 7};
  for (const double width : {1200.0, 450.0, 150.0}) {
    const HeadLinesOptions options =
        mhaviz::ui::headLinesOptions(data, {}, heads, {}, mhaviz::ui::Stage::weights,
                                     QApplication::font(), QSizeF(width, 400), 0);
    QVERIFY(options.size.width() >= width);
    const HeadLines lines = mhaviz::ui::layoutHeadLines(data, {}, options);
    QVERIFY(lines.queries[0].box.right() < lines.keys[0].box.left());
    QVERIFY(lines.queries[0].anchor.x() + 60 < lines.keys[0].anchor.x());
    QVERIFY(lines.queryNoteX + lines.noteWidth <= lines.queries[0].box.left() + 1e-9);
    QVERIFY(lines.keys[0].box.right() <= lines.keyNoteX + 1e-9);
  }
}

// The length limit counts the queries and the source keys: 512 tokens with add_bias_kv and
// add_zero_attn (S' = 514) are drawn, 513 queries or keys are not.
void TestHeadLines::theLimitCountsQueriesAndSourceKeys() {
  mhaviz::Config config;
  config.embed_dim = 4;
  config.num_heads = 1;
  config.tgt_len = 512;
  config.src_len = 512;
  config.add_bias_kv = true;
  config.add_zero_attn = true;
  const mhaviz::ForwardResult result = mhaviz::ui::test::computeResult(config, false);
  QCOMPARE(result.Sx, std::int64_t{514});
  const StageData data = mhaviz::ui::headViewData(result, {});
  QCOMPARE(data.maps.front().cols, 514);
  config.src_len = 513;
  const mhaviz::ForwardResult longer = mhaviz::ui::test::computeResult(config, false);
  QVERIFY_THROWS_EXCEPTION(mhaviz::InvalidInput, mhaviz::ui::headViewData(longer, {}));
}

// The rasterizer draws each line where it runs, as wide as it is, blended over what is there;
// a transparent line draws nothing, a thin one a single pixel across.
void TestHeadLines::rasterLinesDrawWhereTheyRun() {
  QImage image(100, 60, QImage::Format_ARGB32_Premultiplied);
  image.fill(Qt::white);
  std::vector<mhaviz::ui::RasterLine> lines;
  lines.push_back({QPointF(10, 30), QPointF(90, 30), qRgba(255, 0, 0, 255), 2.0});
  lines.push_back({QPointF(50, 5), QPointF(52, 55), qRgba(0, 0, 255, 128), 1.0});
  lines.push_back({QPointF(10, 10), QPointF(90, 12), qRgba(0, 255, 0, 0), 4.0});
  lines.push_back({QPointF(10, 50), QPointF(40, 50.5), qRgba(0, 0, 0, 255), 0.0});
  mhaviz::ui::rasterLines(image, lines, QPointF(0, 0), 1.0);
  // The red band covers rows 29 and 30 fully, not 27 or 32.
  QCOMPARE(image.pixelColor(20, 29), QColor(Qt::red));
  QCOMPARE(image.pixelColor(20, 30), QColor(Qt::red));
  QCOMPARE(image.pixelColor(20, 27), QColor(Qt::white));
  QCOMPARE(image.pixelColor(20, 32), QColor(Qt::white));
  // The half-transparent blue line over white, on its own row 15, near column 50.
  int bluest = 255;
  for (int x = 48; x <= 53; ++x) bluest = std::min(bluest, image.pixelColor(x, 15).red());
  QVERIFY2(bluest > 100 && bluest < 160, qPrintable(QString::number(bluest)));
  // Crossing the red line, blue drawn later lies over it.
  const QColor crossing = image.pixelColor(50, 30);
  QVERIFY(crossing.blue() > 60 && crossing.red() > 100);
  // The transparent line left nothing.
  QCOMPARE(image.pixelColor(30, 11), QColor(Qt::white));
  // The thin black line: one opaque pixel per column, white above and below it.
  for (int x = 12; x < 38; x += 5) {
    int dark = 0;
    for (int y = 47; y <= 53; ++y) dark += image.pixelColor(x, y) == QColor(Qt::black) ? 1 : 0;
    QCOMPARE(dark, 1);
  }
  // The same drawn at twice the scale, from another origin: the same places, twice as many
  // pixels.
  QImage big(200, 120, QImage::Format_ARGB32_Premultiplied);
  big.fill(Qt::white);
  mhaviz::ui::rasterLines(big, std::span(lines).first(1), QPointF(0, 0), 2.0);
  QCOMPARE(big.pixelColor(40, 58), QColor(Qt::red));
  QCOMPARE(big.pixelColor(40, 54), QColor(Qt::white));
  QImage shifted(100, 60, QImage::Format_ARGB32_Premultiplied);
  shifted.fill(Qt::white);
  mhaviz::ui::rasterLines(shifted, std::span(lines).first(1), QPointF(0, 20), 1.0);
  QCOMPARE(shifted.pixelColor(20, 9), QColor(Qt::red));
  QCOMPARE(shifted.pixelColor(20, 29), QColor(Qt::white));
}

// Hundreds of faint thin lines over one pixel blend as real numbers do: rounded to 8 bits after
// each, the pixel would drift by up to half a step per line (white stayed near grey).
void TestHeadLines::aHazeOfThinLinesBlendsAsRealNumbersDo() {
  QImage image(40, 10, QImage::Format_ARGB32_Premultiplied);
  image.fill(Qt::white);
  const QRgb colour = qRgba(200, 100, 40, 3);
  const std::vector<mhaviz::ui::RasterLine> lines(600, {QPointF(0, 5), QPointF(40, 5), colour, 0});
  mhaviz::ui::rasterLines(image, lines, QPointF(0, 0), 1.0);
  const double a = 3.0 / 255;
  const std::array<double, 3> ink = {200, 100, 40};
  std::array<double, 3> expected = {255, 255, 255};
  for (std::size_t k = 0; k < lines.size(); ++k) {
    for (std::size_t c = 0; c < 3; ++c) expected[c] = ink[c] * a + expected[c] * (1 - a);
  }
  const QColor drawn = image.pixelColor(20, 5);
  const std::array<int, 3> got = {drawn.red(), drawn.green(), drawn.blue()};
  for (std::size_t c = 0; c < 3; ++c) {
    QVERIFY2(
        std::abs(got[c] - expected[c]) <= 1,
        qPrintable(
            QStringLiteral("channel %1: %2, expected %3").arg(c).arg(got[c]).arg(expected[c])));
  }
  QCOMPARE(image.pixelColor(20, 3), QColor(Qt::white));  // one pixel across
}

// Where many lines are drawn, the faint lines of one query -> key pair (one per head, on the
// same pixels) are one thin line of their colours composited; the strong ones stay each its
// own, as wide as its weight makes it. Few lines: every line its own.
void TestHeadLines::theFaintLinesOfOnePairAreDrawnAsOne() {
  const int n = 60;
  const int heads = 8;  // 28,800 lines
  StageData data;
  for (int h = 0; h < heads; ++h) {
    std::vector<double> values(static_cast<std::size_t>(n * n), 0.02 + 0.01 * h);
    values[static_cast<std::size_t>(3 * n + 4)] =
        h == 0 ? 0.5 : 0.02;  // pair (3, 4): a strong head
    data.maps.push_back(makeMap(n, n, values));
  }
  HeadLinesOptions options = allHeads(data);
  const HeadLines lines = mhaviz::ui::layoutHeadLines(data, {}, options);
  QVERIFY(lines.lines.size() > mhaviz::ui::kManyLines);
  const auto drawn = mhaviz::ui::headRasterLines(lines);
  QCOMPARE(drawn.size(), std::size_t{n * n + 1});
  const QPointF q0 = lines.queries[0].anchor;
  const QPointF k0 = lines.keys[0].anchor;
  const auto first = std::find_if(drawn.begin(), drawn.end(),
                                  [&](const auto& l) { return l.from == q0 && l.to == k0; });
  QVERIFY(first != drawn.end());
  QCOMPARE(first->width, 0.0);
  // The heads' colours, each at its weight, blended over one another in drawing order.
  double r = 0, g = 0, b = 0, a = 0;
  for (int h = 0; h < heads; ++h) {
    QColor c = mhaviz::ui::headColor(h);
    c.setAlphaF(static_cast<float>(0.02 + 0.01 * h));
    const double ca = qAlpha(c.rgba()) / 255.0;
    r = qRed(c.rgba()) * ca + r * (1 - ca);
    g = qGreen(c.rgba()) * ca + g * (1 - ca);
    b = qBlue(c.rgba()) * ca + b * (1 - ca);
    a = ca + a * (1 - ca);
  }
  QVERIFY(std::abs(qAlpha(first->colour) - a * 255) <= 1);
  QVERIFY(std::abs(qRed(first->colour) - r / a) <= 1);
  QVERIFY(std::abs(qGreen(first->colour) - g / a) <= 1);
  QVERIFY(std::abs(qBlue(first->colour) - b / a) <= 1);
  // The strong line of pair (3, 4) is drawn last, as wide as its weight, beside that pair's haze.
  QCOMPARE(drawn.back().width, 2.0);
  QCOMPARE(drawn.back().from, lines.queries[3].anchor);
  QCOMPARE(drawn.back().to, lines.keys[4].anchor);
  // A hovered query's lines are few: each drawn as its own antialiased line.
  options.hoverQuery = 3;
  const HeadLines hovered = mhaviz::ui::layoutHeadLines(data, {}, options);
  const auto hoveredDrawn = mhaviz::ui::headRasterLines(hovered);
  QCOMPARE(hoveredDrawn.size(), std::size_t{n * heads});
  for (const auto& l : hoveredDrawn) QVERIFY(l.width >= 1.0);
}

// Drawn in a band of the picture: exactly the lines with a query or key in it (the lines of
// the tokens in sight), strongest last.
void TestHeadLines::aBandDrawsTheLinesOfItsTokens() {
  const int n = 40;
  std::vector<double> values(static_cast<std::size_t>(n * n), 1.0 / n);
  StageData data;
  data.maps.push_back(makeMap(n, n, values));
  HeadLinesOptions options = allHeads(data);
  options.size = QSizeF(400, 300);
  options.minRowHeight = 20;  // taller than the picture: it scrolls
  const HeadLines lines = mhaviz::ui::layoutHeadLines(data, {}, options);
  QVERIFY(lines.height > 700);
  const QRectF band(0, 200, 400, 150);
  const auto drawn = mhaviz::ui::headRasterLines(lines, band);
  std::size_t expected = 0;
  const auto near = [&](double y) {
    return y >= band.top() - lines.rowHeight && y <= band.bottom() + lines.rowHeight;
  };
  for (const HeadLine& l : lines.lines) {
    const double qy = lines.queries[static_cast<std::size_t>(l.query)].anchor.y();
    const double ky = lines.keys[static_cast<std::size_t>(l.key)].anchor.y();
    if (near(qy) || near(ky)) ++expected;
  }
  QVERIFY(expected > 0 && expected < lines.lines.size());
  QCOMPARE(drawn.size(), expected);
  for (const auto& d : drawn) QVERIFY(near(d.from.y()) || near(d.to.y()));
  QCOMPARE(mhaviz::ui::headRasterLines(lines).size(), lines.lines.size());
}

// The label column is as wide as the widest label — query labels, row numbers, key labels, the
// heading — measured once per distinct label (the head view keeps the width between layouts);
// a label past the column's largest width gives that width.
void TestHeadLines::theLabelColumnFitsTheWidestLabel() {
  const QFont font = QApplication::font();
  const QFontMetricsF metrics(font);
  StageData data;
  data.maps.push_back(makeMap(120, 3, std::vector<double>(360, 1.0 / 3)));
  data.maps.front().columns[1].label = QStringLiteral("Wolkenkratzer");
  QStringList queries;
  for (int i = 0; i < 120; ++i)
    queries << (i % 2 == 0 ? QStringLiteral("the") : QStringLiteral("cat"));
  const auto bruteForce = [&](const QStringList& labels) {
    double widest = metrics.horizontalAdvance(QStringLiteral("query"));
    for (const QString& l : labels) widest = std::max(widest, metrics.horizontalAdvance(l));
    for (const auto& c : data.maps.front().columns)
      widest = std::max(widest, metrics.horizontalAdvance(c.label));
    for (int i = 0; i < data.maps.front().rows; ++i)
      widest = std::max(widest, metrics.horizontalAdvance(QString::number(i)));
    return widest;
  };
  const double measured = mhaviz::ui::headLabelsWidth(data, queries, font);
  QVERIFY(std::abs(measured - bruteForce(queries)) < 0.5);
  QVERIFY(measured >= metrics.horizontalAdvance(QStringLiteral("Wolkenkratzer")));
  // The options made from the measured width are those made by measuring again.
  const std::vector<int> heads{0};
  const auto options = mhaviz::ui::headLinesOptions(measured, heads, {}, mhaviz::ui::Stage::weights,
                                                    font, QSizeF(600, 400), 4);
  QCOMPARE(options.labelWidth,
           mhaviz::ui::headLinesOptions(data, queries, heads, {}, mhaviz::ui::Stage::weights, font,
                                        QSizeF(600, 400), 4)
               .labelWidth);
  // A label wider than the column: the column's largest width, 180 px.
  queries[7] = QString(60, QLatin1Char('W'));
  const double wide = mhaviz::ui::headLabelsWidth(data, queries, font);
  QVERIFY(wide >= 156);
  QCOMPARE(mhaviz::ui::headLinesOptions(wide, heads, {}, mhaviz::ui::Stage::weights, font,
                                        QSizeF(600, 400), 4)
               .labelWidth,
           std::min(bruteForce(queries) + 24, 180.0));
}

// 32 heads (a LLaMA layer) in a 360-pixel dock: the head chips wrap onto as many rows as they
// need, every one in sight, and never make the head view wider than the dock (in one row they
// asked for more than a thousand pixels, and the window's docks moved to make room).
void TestHeadLines::manyHeadChipsWrapInsteadOfWideningTheView() {
  mhaviz::Config config;
  config.embed_dim = 32;
  config.num_heads = 32;
  config.tgt_len = 3;
  config.src_len = 3;
  auto result =
      std::make_shared<const mhaviz::ForwardResult>(mhaviz::ui::test::computeResult(config, true));
  mhaviz::ui::HeadView view;
  view.resize(360, 500);
  view.show();
  view.setResult(result, mhaviz::ui::ViewOptions{});
  // (chips added to a shown widget show at the next turn of the event loop)
  QCoreApplication::processEvents();
  QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
  QVERIFY2(view.minimumSizeHint().width() <= 360,
           qPrintable(QString::number(view.minimumSizeHint().width())));
  QList<QToolButton*> chips;
  for (QToolButton* b : view.findChildren<QToolButton*>()) {
    if (b->isCheckable()) chips << b;
  }
  QCOMPARE(chips.size(), 32);
  std::set<int> rows;
  for (QToolButton* chip : chips) {
    QVERIFY(chip->isVisible());
    const QRect at(chip->mapTo(&view, QPoint(0, 0)), chip->size());
    QVERIFY2(view.rect().contains(at), qPrintable(chip->text()));
    rows.insert(at.top());
  }
  QVERIFY(rows.size() >= 2);
  QCOMPARE(view.width(), 360);
}
