// --colormap NAME (colormap_option.hpp).

#include "cli/colormap_option.hpp"

#include <QStringList>
#include <array>
#include <utility>

#include "cli/usage_error.hpp"

namespace mhaviz::cli {

namespace {

using ui::Colormap;

const std::array<std::pair<const char*, Colormap>, 5> kColormaps = {{
    {"viridis", Colormap::viridis},
    {"magma", Colormap::magma},
    {"cividis", Colormap::cividis},
    {"grayscale", Colormap::grayscale},
    {"diverging", Colormap::diverging},
}};

}  // namespace

QString colormapOptionNames() {
  return QStringLiteral("viridis (default), magma, cividis, grayscale or diverging.");
}

Colormap colormapOption(const QCommandLineParser& parser, Colormap fallback) {
  const QString option = QStringLiteral("colormap");
  if (!parser.isSet(option)) return fallback;
  const QString value = parser.value(option);
  QStringList names;
  for (const auto& [name, v] : kColormaps) {
    if (value == QLatin1String(name)) return v;
    names << QString::fromLatin1(name);
  }
  throw UsageError(QStringLiteral("--%1 \"%2\" is not one of %3")
                       .arg(option, value, names.join(QStringLiteral(", ")))
                       .toStdString());
}

}  // namespace mhaviz::cli
