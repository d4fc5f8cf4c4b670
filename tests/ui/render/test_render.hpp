#pragma once
// mhaviz-render-tests' QtTest class, its slots defined in test_render.cpp (the data the grid
// draws), test_render_grid.cpp (the grid's maps, labels and colour scales) and
// test_render_pictures.cpp (pictures prepared in the background, big grids), and the helpers
// those files share: a small configuration, flat indices, the grid's colour scale and maps.

#include <qcustomplot.h>

#include <QObject>
#include <cstdint>

#include "test_render_common.hpp"

namespace mhaviz::ui::test {

// Flat index into a (N, H, A, B) tensor.
inline std::int64_t at(const mhaviz::Tensor& t, std::int64_t n, std::int64_t h, std::int64_t a,
                       std::int64_t b) {
  return ((n * t.size(1) + h) * t.size(2) + a) * t.size(3) + b;
}

// The grid's colour scale (the last one in the layout), or null.
inline QCPColorScale* colourScale(QCustomPlot* plot) {
  QCPColorScale* scale = nullptr;
  for (QCPLayoutElement* e : plot->plotLayout()->elements(true)) {
    if (auto* s = qobject_cast<QCPColorScale*>(e)) scale = s;
  }
  return scale;
}

inline int countColorMaps(QCustomPlot* plot) {
  int count = 0;
  for (int i = 0; i < plot->plottableCount(); ++i) {
    if (qobject_cast<QCPColorMap*>(plot->plottable(i)) != nullptr) ++count;
  }
  return count;
}

}  // namespace mhaviz::ui::test

class TestRender : public QObject {
  Q_OBJECT

 private slots:  // in the order they run; each file's own comment says which it holds
  void reductionKeepsBlockStatistics();
  void gridShowsMapsAndLabels();
  void legendKeysFitOnANarrowGrid();
  void aWeightsOnlyLayersLegendClaimsNoMask();
  void automaticRangeUsesTheWholeColormap();
  void scaleTitleNeverOutrunsItsBar();
  void hiddenGridDrawsItsPictureWhenShown();
  void colourRangeSurvivesResizes();
  void backgroundStatisticsEqualTheDirectOnes();
  void wrappingNeverSplitsASignedNumber();
  void longTitlesAndNotesWrapInsteadOfBeingCut();
  void bigGridIsReducedToScreenResolution();
};
