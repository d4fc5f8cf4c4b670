#include "render/image_export.hpp"

#include <qcustomplot.h>

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSvgGenerator>
#include <exception>
#include <filesystem>
#include <functional>
#include <memory>

#include "mhaviz/core/io/file_bytes.hpp"
#include "render/heatmap_grid.hpp"
#include "render/result_maps.hpp"

namespace mhaviz::ui {
namespace {

constexpr int kMaxSide = 20000;  // px; larger pictures exhaust memory before they help anyone

QString writeSvg(QCustomPlot* plot, const QString& path, int width, int height,
                 const QString& title) {
  QSvgGenerator generator;
  generator.setFileName(path);
  generator.setSize(QSize(width, height));
  generator.setViewBox(QRect(0, 0, width, height));
  generator.setTitle(title);
  generator.setDescription(QStringLiteral("mhaviz attention heatmaps"));
  QCPPainter painter;
  if (!painter.begin(&generator)) {
    return QObject::tr("cannot write '%1': the SVG file could not be opened for writing").arg(path);
  }
  painter.setMode(QCPPainter::pmVectorized);
  painter.setMode(QCPPainter::pmNoCaching);
  plot->toPainter(&painter, width, height);
  painter.end();
  return {};
}

}  // namespace

QString describeConfig(const mhaviz::Config& config, int batch) {
  QStringList parts;
  parts << QStringLiteral("L=%1").arg(config.tgt_len) << QStringLiteral("S=%1").arg(config.src_len);
  if (config.batched() && config.batch() > 1) parts << QStringLiteral("N=%1").arg(config.batch());
  parts << QStringLiteral("E=%1").arg(config.embed_dim)
        << QStringLiteral("H=%1").arg(config.num_heads);
  if (config.kdim && *config.kdim != config.embed_dim)
    parts << QStringLiteral("kdim=%1").arg(*config.kdim);
  if (config.vdim && *config.vdim != config.embed_dim)
    parts << QStringLiteral("vdim=%1").arg(*config.vdim);
  if (!config.bias) parts << QStringLiteral("bias=False");
  if (config.add_bias_kv) parts << QStringLiteral("add_bias_kv");
  if (config.add_zero_attn) parts << QStringLiteral("add_zero_attn");
  if (config.training && config.dropout > 0) {
    parts << QObject::tr("dropout=%1 (training)").arg(config.dropout);
  }
  if (config.dtype == mhaviz::DType::float64) parts << QStringLiteral("float64");
  QString text = parts.join(QLatin1Char(' '));
  text += config.batched() ? QObject::tr(", batch %1").arg(batch) : QObject::tr(", unbatched");
  return text;
}

namespace {

/// The checks and drawing shared by exportImage and exportStageImage; `show` gives the grid
/// its maps, `title` is the caption.
QString exportGrid(const std::function<void(HeatmapGrid&)>& show, const QString& title,
                   const ExportOptions& options, const QString& path) {
  try {
    const QFileInfo info(path);
    const QString ext = info.suffix().toLower();
    if (ext != QLatin1String("png") && ext != QLatin1String("svg") && ext != QLatin1String("pdf")) {
      return QObject::tr(
                 "cannot export to '%1': unknown image type '%2'; use a file name ending "
                 "in .png, .svg or .pdf")
          .arg(path, ext.isEmpty() ? QObject::tr("(no extension)") : QStringLiteral(".") + ext);
    }
    if (options.width < 16 || options.height < 16 || options.width > kMaxSide ||
        options.height > kMaxSide) {
      return QObject::tr(
                 "cannot export a %1x%2 picture: width and height must be between 16 "
                 "and %3 pixels")
          .arg(options.width)
          .arg(options.height)
          .arg(kMaxSide);
    }
    if (!(options.scale > 0 && options.scale <= 10)) {
      return QObject::tr("cannot export with scale %1: use a scale between 0.1 and 10")
          .arg(options.scale);
    }
    const QDir dir = info.absoluteDir();
    if (!dir.exists()) {
      return QObject::tr(
                 "cannot write '%1': the folder '%2' does not exist; create it or choose "
                 "another folder")
          .arg(path, dir.path());
    }
    {
      QFile probe(path);
      const bool existed = probe.exists();
      if (!probe.open(QIODevice::WriteOnly | QIODevice::Append)) {
        return QObject::tr("cannot write '%1': %2; choose a writable location")
            .arg(path, probe.errorString());
      }
      probe.close();
      if (!existed) probe.remove();
    }
    if (qobject_cast<QApplication*>(QCoreApplication::instance()) == nullptr) {
      return QObject::tr(
          "image export needs a QApplication (run with a display or "
          "QT_QPA_PLATFORM=offscreen)");
    }

    // The same widget as the window, drawn offscreen at the requested size.
    HeatmapGrid grid;
    grid.setAttribute(Qt::WA_DontShowOnScreen);
    grid.setFollowPalette(false);    // the picture's own background, whatever the window theme
    grid.setScrollWhenSmall(false);  // one picture of the requested size
    grid.resize(options.width, options.height);
    QCustomPlot* plot = grid.plot();
    plot->setGeometry(0, 0, options.width, options.height);
    plot->setBackground(options.transparent ? QBrush(Qt::NoBrush) : QBrush(Qt::white));
    grid.setCaption(title);
    grid.setAxisTitles(true);
    show(grid);
    if (grid.mapCount() == 0) {
      return QObject::tr("nothing to export: %1").arg(grid.message());
    }

    // Written beside the file, then renamed over it: the previous picture stays whole until
    // the new one is complete.
    QString failure;
    struct WriteFailed {};
    try {
      mhaviz::io::replace_file_atomic(
          QFile::encodeName(path).toStdString(), [&](const std::filesystem::path& tmp) {
            const QString part = QFile::decodeName(tmp.c_str());
            bool ok = true;
            if (ext == QLatin1String("png")) {
              ok = plot->savePng(part, options.width, options.height, options.scale, -1,
                                 static_cast<int>(96 * options.scale));
            } else if (ext == QLatin1String("pdf")) {
              ok = plot->savePdf(part, options.width, options.height, QCP::epNoCosmetic,
                                 QStringLiteral("mhaviz"), title);
            } else {
              failure = writeSvg(plot, part, options.width, options.height, title);
              failure.replace(part, path);
              ok = failure.isEmpty();
            }
            if (ok && QFileInfo(part).size() > 0) return;
            if (failure.isEmpty()) {
              failure = QObject::tr(
                            "cannot write '%1': the %2 file could not be written (disk full or "
                            "no permission?)")
                            .arg(path, ext.toUpper());
            }
            throw WriteFailed{};
          });
    } catch (const WriteFailed&) {
      return failure;
    }
    return {};
  } catch (const std::exception& e) {
    return QObject::tr("export to '%1' failed: %2").arg(path, QString::fromUtf8(e.what()));
  }
}

}  // namespace

QString exportImage(const mhaviz::ForwardResult& result, const ViewOptions& view,
                    const ExportOptions& options, const QString& path,
                    const mhaviz::ResultMeasures* measures) {
  const QString title =
      !options.title.isEmpty()
          ? options.title
          : describeConfig(result.config, view.batch) + QStringLiteral(" \u2014 ") +
                shownStageName(view.stage) +
                (view.soloHead >= 0 ? QObject::tr(", head %1").arg(view.soloHead) : QString());
  return exportGrid(
      [&](HeatmapGrid& grid) {
        // Not owned: `result` and `measures` outlive the grid.
        showResult(
            grid,
            std::shared_ptr<const mhaviz::ForwardResult>(&result,
                                                         [](const mhaviz::ForwardResult*) {}),
            view, std::shared_ptr<const mhaviz::ResultMeasures>(std::shared_ptr<void>(), measures));
      },
      title, options, path);
}

QString exportStageImage(const StageData& data, const ViewOptions& view,
                         const ExportOptions& options, const QString& path) {
  return exportGrid([&](HeatmapGrid& grid) { grid.setStageData(data, view); }, options.title,
                    options, path);
}

}  // namespace mhaviz::ui
