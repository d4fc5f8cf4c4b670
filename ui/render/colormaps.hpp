#pragma once
// Colour gradients for the heatmaps, built from published colour stops (QCustomPlot 2.1.0 has
// no perceptual presets), and the colours that mark masked cells, NaN cells and the appended
// bias_k / zero keys so they never look like a value of the gradient.

#include <QColor>
#include <QList>
#include <QString>

#include "stages/view_options.hpp"

class QCPColorGradient;

namespace mhaviz::ui {

/// The colormap actually drawn: signed stages use `diverging` unless grayscale (print) or
/// diverging was chosen; unsigned stages use the chosen one.
Colormap effectiveColormap(Colormap chosen, bool isSigned);

/// Gradient over [0, 1] with NaN drawn in nanColor(map) (QCPColorGradient::nhNanColor).
QCPColorGradient makeGradient(Colormap map);

/// NaN cells: a colour that the gradient never produces (magenta; cyan for magma).
QColor nanColor(Colormap map);
/// Masked cells (-inf in the merged mask): a neutral colour far from the gradient.
QColor maskedColor(Colormap map);
/// The masked colour of maps shown beside maps of the diverging colormap (compare's A, B and
/// B − A share it): in neither `map` nor the diverging map.
QColor maskedColorBesideDiverging(Colormap map);
/// Tick labels and separator of the key columns/rows appended by add_bias_kv / add_zero_attn.
QColor extraKeyColor();
/// The colour of key/value head `group` under grouped-query attention (num_key_value_heads):
/// the query heads sharing it are marked with it wherever heads are listed. Eight colours that
/// stay apart for colour-blind eyes (Okabe & Ito), repeating.
QColor kvGroupColor(int group);

/// Every colormap, in the order the selectors list them, and its name as shown.
QList<Colormap> allColormaps();
QString colormapName(Colormap colormap);

}  // namespace mhaviz::ui
