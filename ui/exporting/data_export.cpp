#include "exporting/data_export.hpp"

#include <QCoreApplication>
#include <QDir>
#include <charconv>
#include <cmath>
#include <span>
#include <string>

#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/io/file_bytes.hpp"
#include "mhaviz/core/io/npz.hpp"
#include "mhaviz/core/io/result_tensors.hpp"

namespace mhaviz::ui {

namespace {

QString number(double v) {
  if (std::isnan(v)) return QStringLiteral("nan");
  if (std::isinf(v)) return v < 0 ? QStringLiteral("-inf") : QStringLiteral("inf");
  char buf[64];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return QString::fromLatin1(buf, ec == std::errc() ? static_cast<int>(end - buf) : 0);
}

/// A CSV field, quoted when it holds a comma, quote or line break.
QString field(const QString& text) {
  if (!text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"')) &&
      !text.contains(QLatin1Char('\n'))) {
    return text;
  }
  QString quoted = text;
  quoted.replace(QStringLiteral("\""), QStringLiteral("\"\""));
  return QLatin1Char('"') + quoted + QLatin1Char('"');
}

}  // namespace

QString stageCsv(const StageData& data) {
  // Data, not display: the English titles and labels, so that the file is the same whatever the
  // UI language.
  QString out = QStringLiteral("map,row,column,value\n");
  for (const MapData& map : data.maps) {
    const QString title = field(map.title);
    for (int r = 0; r < map.rows; ++r) {
      for (int c = 0; c < map.cols; ++c) {
        const QString column = static_cast<std::size_t>(c) < map.columns.size()
                                   ? field(map.columns[static_cast<std::size_t>(c)].label)
                                   : QString::number(c);
        out += title + QLatin1Char(',') + QString::number(r) + QLatin1Char(',') + column +
               QLatin1Char(',') +
               number(map.values[static_cast<std::size_t>(r) * static_cast<std::size_t>(map.cols) +
                                 static_cast<std::size_t>(c)]) +
               QLatin1Char('\n');
      }
    }
  }
  return out;
}

void writeStageCsv(const mhaviz::ForwardResult& result, const ViewOptions& view,
                   const QString& path, const mhaviz::ResultMeasures* measures) {
  const QByteArray csv = stageCsv(extractStage(result, view, ExtractMode::copy, measures)).toUtf8();
  mhaviz::io::write_file_atomic(path.toStdString(),
                                std::as_bytes(std::span(csv.constData(), csv.size())));
}

void writeResultNpz(const mhaviz::ForwardResult& result, const QString& path) {
  // Stored like numpy.savez (as mhaviz-cli run writes by default): at disk speed.
  mhaviz::io::write_npz_streamed(path.toStdString(), mhaviz::io::result_stream(result), false);
}

QString headFileName(Stage stage, int head, int batch, const QString& extension) {
  QString name = stageName(stage).replace(QLatin1Char(' '), QLatin1Char('_'));
  if (head >= 0) name += QStringLiteral("_head%1").arg(head);
  return name + QStringLiteral("_batch%1.%2").arg(batch).arg(extension);
}

QStringList exportAllHeads(const mhaviz::ForwardResult& result, ViewOptions view,
                           const ExportOptions& options, const QString& folder,
                           const QString& extension, const mhaviz::ResultMeasures* measures) {
  if (!QDir().mkpath(folder)) {
    throw mhaviz::InvalidInput(
        QCoreApplication::translate("mhaviz::ui::DataExport",
                                    "Cannot create the folder %1. Choose another folder.")
            .arg(folder)
            .toStdString());
  }
  const bool perHead = view.stage != Stage::merged && view.stage != Stage::output;
  const int heads = perHead ? static_cast<int>(result.H) : 1;
  QStringList written;
  for (int h = 0; h < heads; ++h) {
    view.soloHead = perHead ? h : -1;
    const QString path =
        QDir(folder).filePath(headFileName(view.stage, perHead ? h : -1, view.batch, extension));
    ExportOptions o = options;
    if (o.title.isEmpty() && perHead) {
      // Shown in the picture: in the UI language (the file name stays English).
      o.title = QCoreApplication::translate("mhaviz::ui::DataExport", "%1, %2, head %3")
                    .arg(describeConfig(result.config, view.batch), shownStageName(view.stage))
                    .arg(h);
    }
    const QString error = exportImage(result, view, o, path, measures);
    if (!error.isEmpty()) throw mhaviz::InvalidInput(error.toStdString());
    written << path;
  }
  return written;
}

}  // namespace mhaviz::ui
