#include "render/colormaps.hpp"

#include <QCoreApplication>

#include <qcustomplot.h>

#include <algorithm>
#include <array>
#include <iterator>
#include <cstddef>

namespace mhaviz::ui {
namespace {

struct Rgb {
  double r, g, b;
};

// 17 stops (entries 0, 16, ..., 240, 255 of the 256-entry tables) of the perceptually uniform
// colormaps of van der Walt, Smith and Firing (viridis, magma; CC0) and of Nuñez, Anderton and
// Renslow (cividis, optimised for colour-vision deficiency), as published with matplotlib.
constexpr std::array<Rgb, 17> kViridis = {{{0.267004, 0.004874, 0.329415},
                                           {0.282327, 0.094955, 0.417331},
                                           {0.278826, 0.175490, 0.483397},
                                           {0.258965, 0.251537, 0.524736},
                                           {0.229739, 0.322361, 0.545706},
                                           {0.199430, 0.387607, 0.554642},
                                           {0.172719, 0.448791, 0.557885},
                                           {0.149039, 0.508051, 0.557250},
                                           {0.127568, 0.566949, 0.550556},
                                           {0.120638, 0.625828, 0.533488},
                                           {0.157851, 0.683765, 0.501686},
                                           {0.246070, 0.738910, 0.452024},
                                           {0.369214, 0.788888, 0.382914},
                                           {0.515992, 0.831158, 0.294279},
                                           {0.678489, 0.863742, 0.189503},
                                           {0.845561, 0.887322, 0.099702},
                                           {0.993248, 0.906157, 0.143936}}};

constexpr std::array<Rgb, 17> kMagma = {{{0.001462, 0.000466, 0.013866},
                                         {0.039608, 0.031090, 0.133515},
                                         {0.113094, 0.065492, 0.276784},
                                         {0.211718, 0.061992, 0.418647},
                                         {0.316654, 0.071690, 0.485380},
                                         {0.414709, 0.110431, 0.504662},
                                         {0.512831, 0.148179, 0.507648},
                                         {0.613617, 0.181811, 0.498536},
                                         {0.716387, 0.214982, 0.475290},
                                         {0.816914, 0.255895, 0.436461},
                                         {0.904281, 0.319610, 0.388137},
                                         {0.960949, 0.418323, 0.359630},
                                         {0.986700, 0.535582, 0.382210},
                                         {0.996096, 0.653659, 0.446213},
                                         {0.996898, 0.769591, 0.534892},
                                         {0.992440, 0.884330, 0.640099},
                                         {0.987053, 0.991438, 0.749504}}};

constexpr std::array<Rgb, 17> kCividis = {{{0.000000, 0.135112, 0.304751},
                                           {0.000000, 0.178802, 0.414764},
                                           {0.103401, 0.220406, 0.435790},
                                           {0.195057, 0.264372, 0.425924},
                                           {0.263738, 0.307831, 0.422789},
                                           {0.324250, 0.351289, 0.426250},
                                           {0.380830, 0.395164, 0.435653},
                                           {0.435168, 0.439763, 0.451134},
                                           {0.488697, 0.485318, 0.471008},
                                           {0.547840, 0.531895, 0.471704},
                                           {0.609105, 0.579816, 0.463638},
                                           {0.671991, 0.629316, 0.448018},
                                           {0.736488, 0.680629, 0.424028},
                                           {0.802667, 0.733978, 0.390153},
                                           {0.870717, 0.789572, 0.343333},
                                           {0.941147, 0.847530, 0.275815},
                                           {0.995737, 0.909344, 0.217772}}};

// ColorBrewer RdBu (11 classes, Cynthia Brewer), reversed so negative values are blue and
// positive values red, with the neutral colour at 0.5 (the gradient is used over a symmetric
// range, so 0.5 is a value of 0).
constexpr std::array<const char*, 11> kBlueWhiteRed = {"#053061", "#2166ac", "#4393c3", "#92c5de",
                                                       "#d1e5f0", "#f7f7f7", "#fddbc7", "#f4a582",
                                                       "#d6604d", "#b2182b", "#67001f"};

template <std::size_t N>
void addStops(QCPColorGradient& gradient, const std::array<Rgb, N>& stops) {
  for (std::size_t i = 0; i < N; ++i) {
    const double position = i + 1 == N ? 1.0 : static_cast<double>(i * 16) / 255.0;
    gradient.setColorStopAt(
        position, QColor::fromRgbF(static_cast<float>(stops[i].r), static_cast<float>(stops[i].g),
                                   static_cast<float>(stops[i].b)));
  }
}

}  // namespace

Colormap effectiveColormap(Colormap chosen, bool isSigned) {
  if (isSigned && chosen != Colormap::grayscale) return Colormap::diverging;
  return chosen;
}

QCPColorGradient makeGradient(Colormap map) {
  QCPColorGradient gradient;
  gradient.clearColorStops();
  gradient.setColorInterpolation(QCPColorGradient::ciRGB);
  switch (map) {
    case Colormap::viridis:
      addStops(gradient, kViridis);
      break;
    case Colormap::magma:
      addStops(gradient, kMagma);
      break;
    case Colormap::cividis:
      addStops(gradient, kCividis);
      break;
    case Colormap::grayscale:
      // Print: 0 is white paper, 1 is black ink (matplotlib's "Greys").
      gradient.setColorStopAt(0.0, QColor(255, 255, 255));
      gradient.setColorStopAt(1.0, QColor(0, 0, 0));
      break;
    case Colormap::diverging:
      for (std::size_t i = 0; i < kBlueWhiteRed.size(); ++i) {
        gradient.setColorStopAt(static_cast<double>(i) / 10.0, QColor(kBlueWhiteRed[i]));
      }
      break;
  }
  gradient.setLevelCount(512);
  gradient.setNanHandling(QCPColorGradient::nhNanColor);
  gradient.setNanColor(nanColor(map));
  return gradient;
}

QColor nanColor(Colormap map) {
  // Magma runs through purple-pinks, so its NaN colour is cyan instead of magenta.
  return map == Colormap::magma ? QColor(0, 229, 255) : QColor(255, 0, 255);
}

QColor maskedColor(Colormap map) {
  switch (map) {
    case Colormap::viridis:
      return QColor(210, 210, 210);  // neutral light grey; viridis has no greys
    case Colormap::magma:
      return QColor(166, 206, 227);  // light blue; magma has no blues this light
    case Colormap::cividis:
      return QColor(255, 255, 255);  // white; cividis's greys are mid-tones, its top is yellow
    case Colormap::grayscale:
      return QColor(166, 206, 227);  // a hue in a gradient without any
    case Colormap::diverging:
      return QColor(77, 77, 77);  // dark neutral grey; RdBu's only neutral is near-white
  }
  return QColor(210, 210, 210);
}

QColor maskedColorBesideDiverging(Colormap map) {
  // Neither viridis nor magma nor RdBu has a mid grey; cividis and grayscale do, and a green is
  // in neither of them nor in RdBu.
  return map == Colormap::cividis || map == Colormap::grayscale ? QColor(110, 180, 110)
                                                                : QColor(150, 150, 150);
}

QColor extraKeyColor() { return QColor(214, 96, 0); }

QColor kvGroupColor(int group) {
  static const QColor kColors[] = {QColor(0, 114, 178),  QColor(230, 159, 0),
                                   QColor(0, 158, 115),  QColor(204, 121, 167),
                                   QColor(86, 180, 233), QColor(213, 94, 0),
                                   QColor(240, 228, 66), QColor(0, 0, 0)};
  return kColors[static_cast<std::size_t>(std::max(0, group)) % std::size(kColors)];
}

QList<Colormap> allColormaps() {
  return {Colormap::viridis, Colormap::magma, Colormap::cividis, Colormap::grayscale,
          Colormap::diverging};
}

QString colormapName(Colormap colormap) {
  switch (colormap) {
    case Colormap::viridis:
      return QCoreApplication::translate("mhaviz::ui::Colormap", "viridis");
    case Colormap::magma:
      return QCoreApplication::translate("mhaviz::ui::Colormap", "magma");
    case Colormap::cividis:
      return QCoreApplication::translate("mhaviz::ui::Colormap", "cividis (colour-blind safe)");
    case Colormap::grayscale:
      return QCoreApplication::translate("mhaviz::ui::Colormap", "grayscale (print)");
    case Colormap::diverging:
      return QCoreApplication::translate("mhaviz::ui::Colormap", "diverging");
  }
  return {};
}

}  // namespace mhaviz::ui
