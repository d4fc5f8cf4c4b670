// What the model view draws (QtTest, offscreen): the grid's cells are the core's weights in the
// gradient's colours, with a colour scale, token labels, named axes and a hover that names the
// cell; a layer disagreeing with PyTorch is framed in red; scales, step view and flow titles fit
// their pictures, and a grid of many layers scrolls.

#include "test_model.hpp"

#include <qcustomplot.h>

#include <QFile>
#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <vector>

#include "mhaviz/core/io/tensor_file.hpp"
#include "mhaviz/core/model/model.hpp"
#include "model/model_grid_layout.hpp"
#include "model/model_pages.hpp"
#include "model/model_picture.hpp"
#include "model/model_view.hpp"
#include "model/picture_parts.hpp"
#include "model/step_picture.hpp"
#include "render/colormaps.hpp"

using namespace mhaviz::ui;
using namespace mhaviz::ui::testing::model_view;
namespace model = mhaviz::model;

namespace {

/// Largest channel difference between two colours.
int colourDistance(QRgb a, QRgb b) {
  return std::max({std::abs(qRed(a) - qRed(b)), std::abs(qGreen(a) - qGreen(b)),
                   std::abs(qBlue(a) - qBlue(b))});
}

}  // namespace

// The grid's colour table gives every cell the colour the gradient's own color() gives it:
// the levels' edges and middles, both ends, outside 0..1, for every colour map.
void TestModel::gradientTableIsTheGradientsColours() {
  const QCPRange range(0.0, 1.0);
  for (const Colormap map : allColormaps()) {
    QCPColorGradient gradient = makeGradient(map);
    const GradientTable table(gradient);
    const int top = gradient.levelCount() - 1;
    // (not beyond int's range: color() converts v · levels to int, undefined there)
    std::vector<double> values{-1000.0, -1.0, -1e-3, -0.0, 0.0, 1.0, 1.0 + 1e-12, 1.5, 1000.0};
    for (int k = 0; k <= top; ++k) {
      for (const double d : {-1e-9, 0.0, 1e-9, 0.5}) values.push_back((k + d) / top);
      values.push_back(std::nextafter(double(k) / top, 0.0));
      values.push_back(std::nextafter(double(k) / top, 2.0));
    }
    for (int i = 0; i <= 100000; ++i) values.push_back(i / 100000.0);
    for (const double v : values) {
      const QRgb want = gradient.color(v, range);
      if (table(v) != want)
        QFAIL(qPrintable(QStringLiteral("%1 at %2: table %3, gradient %4")
                             .arg(colormapName(map))
                             .arg(v, 0, 'g', 17)
                             .arg(table(v), 0, 16)
                             .arg(want, 0, 16)));
    }
  }
}

void TestModel::openingAModelShowsLayersTimesHeadsMapsOfTheCoreWeights() {
  ModelWindow w;
  openAndWait(w, modelPath("reverse"));
  ModelView* view = w.view();
  QVERIFY2(view->error().isEmpty(), qPrintable(view->error()));
  QVERIFY(w.pages.showingModel());
  QVERIFY(w.errors.isEmpty());

  // The core's own reading of the same file.
  const model::Model m = model::read_model(modelPath("reverse").toStdString());
  const model::ComputedModel computed = model::compute_model(m);
  QCOMPARE(view->loaded()->model.layers.size(), m.layers.size());
  QVERIFY(m.layers.size() >= 2);

  // Every map is there, and each cell's colour is the core weight's on the fixed 0..1 scale.
  const QImage picture = view->picture();
  QCPColorGradient gradient = makeGradient(Colormap::viridis);
  int cellsChecked = 0;
  for (std::size_t li = 0; li < m.layers.size(); ++li) {
    const mhaviz::Tensor& weights = computed.weights[li];
    const std::int64_t H = weights.size(1), L = weights.size(2), Sx = weights.size(3);
    QCOMPARE(H, m.layers[li].problem.config.num_heads);
    for (std::int64_t h = 0; h < H; ++h) {
      const QRect r = view->mapRect(int(li), int(h));
      QVERIFY2(r.width() >= Sx && r.height() >= L, "each map has room for its cells");
      for (std::int64_t q = 0; q < L; ++q) {
        for (std::int64_t k = 0; k < Sx; ++k) {
          const int x = r.left() + int((double(k) + 0.5) * r.width() / double(Sx));
          const int y = r.top() + int((double(q) + 0.5) * r.height() / double(L));
          const double v = weights.value(((0 * H + h) * L + q) * Sx + k);
          const QRgb want = gradient.color(v, QCPRange(0.0, 1.0));
          const QRgb got = picture.pixel(x, y);
          if (colourDistance(want, got) > 2) {
            QFAIL(qPrintable(QStringLiteral("layer %1 head %2 cell (%3, %4): weight %5 should "
                                            "be drawn as %6, the view shows %7")
                                 .arg(li)
                                 .arg(h)
                                 .arg(q)
                                 .arg(k)
                                 .arg(v)
                                 .arg(QColor(want).name(), QColor(got).name())));
          }
          ++cellsChecked;
        }
      }
    }
  }
  QVERIFY(cellsChecked > 0);
  // The caption and each layer's agreement are shown.
  auto* caption = view->captionLine();
  QVERIFY(caption->text().contains(QString::fromStdString(m.index.caption)));
  auto* summary = view->summaryLine();
  QVERIFY2(summary->text().contains(QStringLiteral("every layer matches PyTorch")),
           qPrintable(summary->text()));
  QCOMPARE(computed.disagreeing(), std::size_t(0));

  // The rollout replaces the grid and can be switched back.
  const QImage grid = view->picture();
  view->setShowRollout(true);
  QTRY_VERIFY_WITH_TIMEOUT(view->picture() != grid && view->mapRect(0, 0).isEmpty(), kTimeout);
  QVERIFY(view->error().isEmpty());
  view->setShowRollout(false);
  QTRY_VERIFY_WITH_TIMEOUT(!view->mapRect(0, 0).isEmpty(), kTimeout);
}

// Issue 28 item 3: the grid has a colour scale, right of the maps: 1 at its top, 0 at its foot.
void TestModel::theGridHasAColourScale() {
  ModelWindow w;
  openAndWait(w, modelPath("reverse"));
  ModelView* view = w.view();
  QTRY_VERIFY_WITH_TIMEOUT(!view->mapRect(0, 3).isEmpty(), kTimeout);
  const QImage picture = view->picture();
  QCPColorGradient gradient = makeGradient(Colormap::viridis);
  const QRgb one = gradient.color(1.0, QCPRange(0.0, 1.0));
  const QRgb zero = gradient.color(0.0, QCPRange(0.0, 1.0));
  bool found = false;
  for (int x = view->mapRect(0, 3).right() + 2; x < picture.width() && !found; ++x) {
    int top = -1;
    for (int y = 0; y < picture.height() && !found; ++y) {
      const QRgb c = picture.pixel(x, y);
      if (top < 0 && colourDistance(c, one) <= 3) top = y;
      if (top >= 0 && y > top + 40 && colourDistance(c, zero) <= 3) found = true;
    }
  }
  QVERIFY2(found, "no colour scale right of the maps (1 above, 0 below)");
}

// Issue 29: the maps carry the model's token labels (queries left of the first column, keys
// under the last row), the axes are named, the titles fit; the hover names layer, head,
// query, key and weight.
void TestModel::theGridIsLabelledAndTheHoverNamesTheCell() {
  ModelWindow w;
  openAndWait(w, modelPath("reverse"));
  ModelView* view = w.view();
  QTRY_VERIFY_WITH_TIMEOUT(!view->mapRect(1, 3).isEmpty(), kTimeout);
  const model::Model m = model::read_model(modelPath("reverse").toStdString());
  const model::ComputedModel computed = model::compute_model(m);
  QVERIFY(!m.layers[0].problem.config.query_labels.empty());  // the model has its tokens
  // The picture as mhaviz-cli model --image draws it, at a usual size: every label there,
  // the title whole.
  const QSize size(1200, 900);
  const ModelGridLayout g(m, computed, 0, size);
  QVERIFY(g.queryLabelW > 0 && g.keyBand > 0);
  const QFontMetrics fm(g.font);
  const QRect needed = fm.boundingRect(QRect(0, 0, g.title.width(), 10000),
                                       Qt::TextWordWrap | Qt::AlignLeft, g.titleText);
  QVERIFY2(needed.height() <= g.title.height(), "the figure title is cut");
  QVERIFY(g.rowTitleLines >= 1);
  for (int li = 0; li < g.layers; ++li) {
    const QString name = modelLayerName(m, li);
    const QString check = modelLayerCheck(computed, li);
    const int width = g.rowTitle(li).width();
    if (g.rowTitleLines == 1) {
      QVERIFY(fm.horizontalAdvance(name + QStringLiteral(" — ") + check) <= width);
    } else {
      QVERIFY(fm.horizontalAdvance(name) <= width && fm.horizontalAdvance(check) <= width);
    }
  }
  const QRect map = g.mapRect(0, 0);
  const double rowPx = double(map.height()) / double(computed.weights[0].size(2));
  QCOMPARE(labelStep(rowPx, fm.height() * 0.9), 1);  // every query label
  const QImage picture = drawModelGrid(m, computed, 0, size);
  // Ink left of the first map (the labels) and under the last row (the key labels).
  const auto inked = [&](const QRect& area) {
    for (int y = area.top(); y <= area.bottom(); ++y) {
      for (int x = area.left(); x <= area.right(); ++x) {
        if (QColor(picture.pixel(x, y)).lightness() < 128) return true;
      }
    }
    return false;
  };
  QVERIFY(inked(QRect(map.left() - g.queryLabelW, map.top(), g.queryLabelW - 2, map.height())));
  const QRect last = g.mapRect(g.layers - 1, 0);
  QVERIFY(inked(QRect(last.left(), last.bottom() + 2, last.width(), g.keyBand - 2)));
  QVERIFY(inked(g.keyAxis) && inked(g.queryAxis));

  // The hover: layer, head, query and key with their labels, and the weight.
  QSignalSpy hovered(view, &ModelView::hovered);
  const QRect r = view->mapRect(1, 3);
  const QPoint at(r.left() + r.width() / 16, r.top() + r.height() - r.height() / 16);
  QTest::mouseMove(view->canvas(), at);
  QTRY_VERIFY(!hovered.isEmpty());
  const QString text = hovered.last().at(0).toString();
  const mhaviz::Tensor& w1 = computed.weights[1];
  const std::int64_t L = w1.size(2), Sx = w1.size(3);
  const std::int64_t q = L - 1, k = 0;
  const QString queryLabel = QString::fromStdString(m.layers[1].problem.config.query_labels[q]);
  const QString keyLabel = QString::fromStdString(m.layers[1].problem.config.key_labels[k]);
  for (const QString& part : {QStringLiteral("layer 1"), QStringLiteral("head 3"),
                              QStringLiteral("query %1 \"%2\"").arg(q).arg(queryLabel),
                              QStringLiteral("key %1 \"%2\"").arg(k).arg(keyLabel),
                              QString::number(w1.value(((0 * 4 + 3) * L + q) * Sx + k), 'g', 4)}) {
    QVERIFY2(text.contains(part), qPrintable(text + QStringLiteral(" lacks ") + part));
  }
}

void TestModel::aLayerDisagreeingWithPyTorchIsShownPlainly() {
  // The reversing model with PyTorch's stored output of layer 1 changed by 0.5 in one value.
  QTemporaryDir dir;
  QVERIFY(dir.isValid());
  QVERIFY(QFile::copy(modelPath("reverse"), dir.filePath(QStringLiteral("reverse.json"))));
  QString npz = modelPath("reverse");
  npz.replace(QStringLiteral(".json"), QStringLiteral(".npz"));
  mhaviz::io::TensorMap tensors = mhaviz::io::read_tensor_file(npz.toStdString());
  mhaviz::Tensor changed = tensors.at("1/attn_output");
  changed.data<float>()[0] += 0.5F;
  tensors.insert_or_assign("1/attn_output", changed);
  mhaviz::io::write_tensor_file(dir.filePath(QStringLiteral("reverse.npz")).toStdString(), tensors);

  ModelWindow w;
  openAndWait(w, dir.filePath(QStringLiteral("reverse.json")));
  ModelView* view = w.view();
  QVERIFY2(view->error().isEmpty(), qPrintable(view->error()));
  QVERIFY(view->loaded() != nullptr);
  QVERIFY(view->loaded()->computed.checks[0].ok);
  QVERIFY(!view->loaded()->computed.checks[1].ok);
  auto* summary = view->summaryLine();
  QVERIFY2(summary->text().contains(QStringLiteral("1 of 2 layers DIFFER")),
           qPrintable(summary->text()));
  QVERIFY(summary->text().contains(QStringLiteral("layer 1 (encoder.layers.1.self_attn) by 0.5")));
  QVERIFY(summary->styleSheet().contains(QStringLiteral("#c81e1e")));
  // The disagreeing layer's maps are framed in red in the grid.
  const QRect r = view->mapRect(1, 0);
  QCOMPARE(QColor(view->picture().pixel(r.left() + 1, r.center().y())), QColor(200, 30, 30));
  const QRect ok = view->mapRect(0, 0);
  QVERIFY(QColor(view->picture().pixel(ok.left() + 1, ok.center().y())) != QColor(200, 30, 30));
}

// Issue 40 defect 7: the colour scale's labels never overlap ("1" drawn over "0.75" on a bar
// 55 px tall): fewer ticks where the bar is short, and the bars are tall enough for all five
// where the picture has the room.
void TestModel::theColourScaleLabelsStandApart() {
  QFont font;
  font.setPixelSize(12);
  const QFontMetrics fm(font);
  for (int height = 0; height <= 400; ++height) {
    const QRect bar(100, 50, 14, height);
    const std::vector<ScaleTick> ticks = scaleTicks(bar, fm);
    if (height >= scaleBarHeight(fm)) QCOMPARE(ticks.size(), std::size_t(5));
    if (height >= 4 * fm.height()) QVERIFY(ticks.size() >= 2);
    for (std::size_t i = 0; i < ticks.size(); ++i) {
      QVERIFY(ticks[i].label.top() >= bar.top() && ticks[i].label.bottom() <= bar.bottom());
      QVERIFY(ticks[i].y >= bar.top() && ticks[i].y <= bar.bottom());
      if (i > 0) {
        QVERIFY2(!ticks[i].label.intersects(ticks[i - 1].label),
                 qPrintable(QStringLiteral("labels %1 and %2 overlap on a bar %3 px tall")
                                .arg(ticks[i - 1].value)
                                .arg(ticks[i].value)
                                .arg(height)));
      }
    }
  }
  // The grid of a model with many rows in a short view: the rows are short, the scale not.
  const model::Model m = model::read_model(modelPath("generate").toStdString());
  const model::ComputedModel computed = model::compute_model(m);
  for (const QSize size : {QSize(860, 380), QSize(860, 560), QSize(1400, 900)}) {
    const ModelGridLayout g(m, computed, 0, size, false);
    QVERIFY2(g.scale.height() >= scaleBarHeight(fm),
             qPrintable(QStringLiteral("the scale is %1 px tall at %2x%3")
                            .arg(g.scale.height())
                            .arg(size.width())
                            .arg(size.height())));
    QVERIFY(g.scale.bottom() < size.height());
  }
}

// Issue 40 defect 7: a grid of many layers (a generation capture: a row per call of every
// step) keeps its row titles and maps of a readable size: the picture grows taller than the
// view and scrolls, rather than dropping the titles and shrinking the maps; a model whose
// rows fit does not scroll, and the other views fit the view's height.
void TestModel::aGridOfManyLayersScrollsWithItsTitles() {
  ModelWindow w;
  w.answer = UnsavedAnswer::discard;
  openAndWait(w, modelPath("generate"));
  ModelView* view = w.view();
  QScrollArea* scroll = view->scrollArea();
  view->setMode(ModelMode::grid);
  const int layers = int(view->loaded()->model.layers.size());
  QVERIFY(layers >= 14);
  QTRY_VERIFY_WITH_TIMEOUT(!view->mapRect(layers - 1, 0).isEmpty() && !view->isBusy() &&
                               view->picture().height() == view->canvas()->height(),
                           kTimeout);
  QVERIFY2(view->canvas()->height() > scroll->viewport()->height(),
           qPrintable(QStringLiteral("the canvas is %1 px tall in a view of %2")
                          .arg(view->canvas()->height())
                          .arg(scroll->viewport()->height())));
  QVERIFY(scroll->verticalScrollBar()->isVisible());
  const auto& loaded = *view->loaded();
  const ModelGridLayout g(loaded.model, loaded.computed, 0, view->picture().size(), false);
  QVERIFY2(g.rowTitleLines >= 1, "the layers' row titles are dropped");
  const QFontMetrics fm(g.font);
  for (int li = 0; li < layers; ++li) {
    QVERIFY(!g.rowTitle(li).isEmpty());
    QVERIFY2(view->mapRect(li, 0).height() >= 5 * fm.height(),
             qPrintable(QStringLiteral("layer %1's maps are %2 px tall")
                            .arg(li)
                            .arg(view->mapRect(li, 0).height())));
  }
  // A click on a row far down selects that layer (the canvas's coordinates scroll with it).
  const QRect last = view->mapRect(layers - 1, 2);
  scroll->ensureVisible(last.center().x(), last.center().y());
  QTest::mouseClick(view->canvas(), Qt::LeftButton, {}, last.center());
  QCOMPARE(view->selected(), std::make_pair(layers - 1, 2));
  // The step view fits the view again; a model of two layers does not scroll.
  view->setMode(ModelMode::step);
  QTRY_VERIFY_WITH_TIMEOUT(view->canvas()->height() <= scroll->viewport()->height(), kTimeout);
  openAndWait(w, modelPath("reverse"));
  QTRY_VERIFY_WITH_TIMEOUT(!view->mapRect(1, 3).isEmpty() && !view->isBusy(), kTimeout);
  QCOMPARE(view->canvas()->height(), scroll->viewport()->height());
}

// Issue 40 defect 7: the step view's maps share the picture's height (they were held to 36 px
// a head, with an empty band below them in a tall view).
void TestModel::theStepViewFillsItsPicture() {
  const model::Model m = model::read_model(modelPath("generate").toStdString());
  const model::ComputedModel computed = model::compute_model(m);
  const model::StepRows rows = model::step_rows(m, computed.weights, 3, 0);
  for (const QSize size : {QSize(1000, 560), QSize(1200, 900)}) {
    const QImage picture = drawStepRows(m, rows, size);
    const QColor paper = ModelPictureColors().background;
    int lowest = 0;  // the lowest row with ink or colour
    for (int y = 0; y < picture.height(); ++y) {
      for (int x = 0; x < picture.width() - colourScaleWidth(QFontMetrics(QFont())) - 20; ++x) {
        if (QColor(picture.pixel(x, y)) != paper) {
          lowest = y;
          break;
        }
      }
    }
    QVERIFY2(lowest > picture.height() * 85 / 100,
             qPrintable(QStringLiteral("at %1x%2 the picture ends at y = %3")
                            .arg(size.width())
                            .arg(size.height())
                            .arg(lowest)));
  }
}

// Issue 40 defect 7: the attention flow's (and rollout's) title wraps to the picture's width
// instead of running off its right edge; the map starts below it.
void TestModel::theFlowTitleWrapsInANarrowView() {
  const model::Model m = model::read_model(modelPath("copy").toStdString());
  const model::ComputedModel computed = model::compute_model(m);
  const model::AttentionFlow flow = model::attention_flow(m, computed.weights, 0);
  QFont font;
  font.setPixelSize(12);
  const QFontMetrics fm(font);
  for (const int width : {420, 600, 860, 1400}) {
    const QSize size(width, 600);
    const TokenMapHeader header = flowHeader(m, flow, size);
    for (const auto& [text, rect] :
         {std::pair(header.titleText, header.title), std::pair(header.extraText, header.extra)}) {
      QVERIFY(rect.left() >= 0 && rect.right() < width);
      const QRect needed =
          fm.boundingRect(QRect(0, 0, rect.width(), 100000), Qt::TextWordWrap, text);
      QVERIFY2(needed.height() <= rect.height() && needed.width() <= rect.width(),
               qPrintable(QStringLiteral("\"%1\" needs %2x%3, has %4x%5 at width %6")
                              .arg(text)
                              .arg(needed.width())
                              .arg(needed.height())
                              .arg(rect.width())
                              .arg(rect.height())
                              .arg(width)));
    }
    QVERIFY(header.extra.top() > header.title.bottom() - 1);
  }
  // The picture draws it so (the title's second line has ink at a narrow width).
  const QSize narrow(420, 600);
  const TokenMapHeader header = flowHeader(m, flow, narrow);
  QVERIFY(header.title.height() > 2 * fm.height());
  const QImage picture = drawFlow(m, flow, narrow);
  bool inked = false;
  const int y0 = header.title.top() + fm.height() + 2;
  for (int y = y0; y < header.title.bottom() && !inked; ++y) {
    for (int x = header.title.left(); x < header.title.right() && !inked; ++x)
      inked = QColor(picture.pixel(x, y)).lightness() < 128;
  }
  QVERIFY2(inked, "the title's second line is not drawn");
}
