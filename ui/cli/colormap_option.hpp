#pragma once
// --colormap NAME: the colour maps by the names mhaviz-cli takes (export, model --view image).

#include <QCommandLineParser>
#include <QString>

#include "stages/view_options.hpp"

namespace mhaviz::cli {

/// "viridis (default), magma, cividis, grayscale or diverging.": the option's help.
QString colormapOptionNames();

/// The colour map named by --colormap, `fallback` when it is not given; a UsageError listing
/// the names for any other value.
ui::Colormap colormapOption(const QCommandLineParser& parser, ui::Colormap fallback);

}  // namespace mhaviz::cli
