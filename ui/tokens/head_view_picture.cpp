// The head view's stage, colours, painting and export (head_view_picture.hpp).
#include "tokens/head_view_picture.hpp"

#include <QApplication>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QFontMetricsF>
#include <QImage>
#include <QPainter>
#include <QPainterPath>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <algorithm>
#include <array>
#include <cmath>
#include <exception>
#include <filesystem>

#include "mhaviz/core/errors.hpp"
#include "mhaviz/core/io/file_bytes.hpp"
#include "mhaviz/core/measures.hpp"
#include "render/colormaps.hpp"

namespace mhaviz::ui {

namespace {

constexpr double kHeadingHeight = 18;

}  // namespace

QColor headColor(int head) {
  // Okabe & Ito (2008), "Color Universal Design": blue, orange, bluish green, reddish purple,
  // sky blue, vermillion, yellow.
  static const std::array<QColor, 7> palette = {
      QColor(0, 114, 178),  QColor(230, 159, 0), QColor(0, 158, 115), QColor(204, 121, 167),
      QColor(86, 180, 233), QColor(213, 94, 0),  QColor(240, 228, 66)};
  return palette[static_cast<std::size_t>(std::max(head, 0)) % palette.size()];
}

Stage headViewStage(const mhaviz::ForwardResult& result, const ViewOptions& view) {
  if (view.stage == Stage::value_norms && result.measures && result.measures->norms) {
    return Stage::value_norms;
  }
  if (view.stage == Stage::weights_before_dropout && result.weights_before_dropout) {
    return Stage::weights_before_dropout;
  }
  return Stage::weights;
}

StageData headViewData(const mhaviz::ForwardResult& result, const ViewOptions& view) {
  if (result.L > kHeadViewMaxTokens || result.Sx > kHeadViewMaxTokens) {
    throw mhaviz::InvalidInput(
        QCoreApplication::translate(
            "mhaviz::ui::HeadView",
            "the head view draws up to %1 queries and %1 keys; this result has L=%2 and S'=%3. "
            "Use the grid, or shorten the sequences")
            .arg(kHeadViewMaxTokens)
            .arg(result.L)
            .arg(result.Sx)
            .toStdString());
  }
  ViewOptions v = view;
  v.stage = headViewStage(result, view);
  v.soloHead = -1;
  v.showAverage = false;
  return extractStage(result, v, ExtractMode::describe);
}

std::vector<int> headsShown(const ViewOptions& view, int heads, const std::vector<bool>& chosen) {
  if (view.soloHead >= 0 && view.soloHead < heads) return {view.soloHead};
  std::vector<int> out;
  for (int h = 0; h < heads; ++h) {
    if (chosen.empty() ||
        (static_cast<std::size_t>(h) < chosen.size() && chosen[static_cast<std::size_t>(h)])) {
      out.push_back(h);
    }
  }
  return out;
}

HeadLinesOptions headLinesOptions(const StageData& data, const QStringList& queryLabels,
                                  const std::vector<int>& heads, const HeadViewChoice& choice,
                                  Stage stage, const QFont& font, QSizeF size, double top) {
  HeadLinesOptions options;
  options.heads = heads;
  options.coverage = choice.coverage;
  options.hoverQuery = choice.query;
  options.hoverKey = choice.key;
  options.unitWeights = stage != Stage::value_norms;
  options.size = size;
  options.top = top + kHeadingHeight;
  const QFontMetricsF metrics(font);
  double widest =
      metrics.horizontalAdvance(QCoreApplication::translate("mhaviz::ui::HeadView", "query"));
  for (const QString& label : queryLabels)
    widest = std::max(widest, metrics.horizontalAdvance(label));
  if (!data.maps.empty()) {
    for (const ColumnInfo& c : data.maps.front().columns) {
      widest = std::max(widest, metrics.horizontalAdvance(c.label));
    }
    for (int i = 0; i < data.maps.front().rows; ++i) {
      widest = std::max(widest, metrics.horizontalAdvance(QString::number(i)));
    }
  }
  options.labelWidth = std::min(widest + 24, 180.0);  // room for the NaN mark
  const double note = metrics.horizontalAdvance(QStringLiteral("0.00 "));
  options.noteWidth = note * static_cast<double>(std::max<std::size_t>(heads.size(), 1)) + 8;
  options.maxRowHeight = std::max(32.0, metrics.height() * 2.4);
  options.minRowHeight = metrics.height() + 2;
  return options;
}

void paintHeadLines(QPainter& painter, const HeadLines& lines, const HeadViewLook& look) {
  painter.save();
  painter.setRenderHint(QPainter::Antialiasing, true);
  painter.setFont(look.font);
  const QFontMetricsF metrics(look.font);

  // Column headings.
  if (!lines.queries.empty()) {
    const QRectF q = lines.queries.front().box;
    painter.setPen(look.faint);
    painter.drawText(QRectF(q.left(), q.top() - kHeadingHeight, q.width(), kHeadingHeight),
                     Qt::AlignRight | Qt::AlignVCenter,
                     QCoreApplication::translate("mhaviz::ui::HeadView", "query"));
  }
  if (!lines.keys.empty()) {
    const QRectF k = lines.keys.front().box;
    painter.setPen(look.faint);
    painter.drawText(QRectF(k.left(), k.top() - kHeadingHeight, k.width(), kHeadingHeight),
                     Qt::AlignLeft | Qt::AlignVCenter,
                     QCoreApplication::translate("mhaviz::ui::HeadView", "key"));
  }

  // Lines, weakest first. Width grows a little with the weight, opacity is the weight.
  for (const HeadLine& l : lines.lines) {
    const TokenSlot& q = lines.queries[static_cast<std::size_t>(l.query)];
    const TokenSlot& k = lines.keys[static_cast<std::size_t>(l.key)];
    QColor c = headColor(l.head);
    c.setAlphaF(static_cast<float>(std::clamp(l.alpha, 0.0, 1.0)));
    painter.setPen(QPen(c, 1.0 + 2.0 * l.alpha, Qt::SolidLine, Qt::RoundCap));
    painter.drawLine(q.anchor, k.anchor);
  }

  // The hovered token: a band behind its label, the label bold.
  const auto highlight = [&](const QRectF& box) {
    QColor band = look.faint;
    band.setAlphaF(0.25F);
    painter.fillRect(box, band);
  };
  if (lines.hoveredQuery >= 0)
    highlight(lines.queries[static_cast<std::size_t>(lines.hoveredQuery)].box);
  if (lines.hoveredKey >= 0) highlight(lines.keys[static_cast<std::size_t>(lines.hoveredKey)].box);
  QFont bold = look.font;
  bold.setBold(true);

  // Tokens.
  for (const TokenSlot& q : lines.queries) {
    QRectF text = q.box.adjusted(0, 0, -4, 0);
    if (q.nan) {
      // The grid's NaN colour: every key of this query is masked.
      const double side = std::min(q.box.height() - 6, 10.0);
      const QRectF mark(q.box.right() - side - 2, q.box.center().y() - side / 2, side, side);
      painter.fillRect(mark, nanColor(look.colormap));
      text.setRight(mark.left() - 4);
    }
    painter.setPen(look.ink);
    const bool hovered = lines.hoveredQuery >= 0 &&
                         &q == &lines.queries[static_cast<std::size_t>(lines.hoveredQuery)];
    painter.setFont(hovered ? bold : look.font);
    painter.drawText(text, Qt::AlignRight | Qt::AlignVCenter,
                     metrics.elidedText(q.label, Qt::ElideRight, text.width()));
  }
  for (const TokenSlot& k : lines.keys) {
    painter.setPen(k.kind == mhaviz::KeyKind::source ? look.ink : extraKeyColor());
    const QRectF text = k.box.adjusted(4, 0, 0, 0);
    const bool hovered =
        lines.hoveredKey >= 0 && &k == &lines.keys[static_cast<std::size_t>(lines.hoveredKey)];
    painter.setFont(hovered ? bold : look.font);
    painter.drawText(text, Qt::AlignLeft | Qt::AlignVCenter,
                     metrics.elidedText(k.label, Qt::ElideRight, text.width()));
  }
  painter.setFont(look.font);
  if (lines.firstExtraKey >= 0 && !lines.keys.empty()) {
    const QRectF k = lines.keys.front().box;
    painter.setPen(QPen(extraKeyColor(), 1, Qt::DashLine));
    painter.drawLine(QPointF(k.left(), lines.separatorY), QPointF(k.right(), lines.separatorY));
  }

  // Weights written beside the tokens of the hovered one, one column per head drawn.
  if (!lines.notes.empty()) {
    const double noteWidth = (lines.noteWidth - 8) / std::max(lines.headCount, 1);
    for (const WeightNote& n : lines.notes) {
      const bool keySide = lines.notesAtKeys;
      const TokenSlot& slot = keySide ? lines.keys[static_cast<std::size_t>(n.row)]
                                      : lines.queries[static_cast<std::size_t>(n.row)];
      const double x = keySide ? lines.keyNoteX + 4 + n.slot * noteWidth
                               : lines.queryNoteX + 4 + n.slot * noteWidth;
      painter.setPen(headColor(n.head).darker(look.background.lightnessF() > 0.5 ? 130 : 70));
      painter.drawText(QRectF(x, slot.box.top(), noteWidth, slot.box.height()),
                       Qt::AlignLeft | Qt::AlignVCenter, QString::number(n.weight, 'f', 2));
    }
  }
  painter.restore();
}

QString headViewCaption(const mhaviz::ForwardResult& result, const ViewOptions& view,
                        const std::vector<int>& heads, const HeadViewChoice& choice,
                        const HeadLines& lines) {
  QStringList parts;
  parts << shownStageName(headViewStage(result, view));
  QStringList numbers;
  for (int h : heads) numbers << QString::number(h);
  parts << (heads.size() == 1 ? QCoreApplication::translate("mhaviz::ui::HeadView", "head %1")
                              : QCoreApplication::translate("mhaviz::ui::HeadView", "heads %1"))
               .arg(numbers.isEmpty() ? QCoreApplication::translate("mhaviz::ui::HeadView", "none")
                                      : numbers.join(QStringLiteral(", ")));
  QString coverage = QCoreApplication::translate("mhaviz::ui::HeadView", "coverage %1 %")
                         .arg(std::round(choice.coverage * 1000) / 10);
  if (lines.hiddenLines > 0) {
    coverage +=
        QLatin1Char(' ') + QCoreApplication::translate("mhaviz::ui::HeadView", "(hidden lines: %1)")
                               .arg(lines.hiddenLines);
  }
  parts << coverage;
  return parts.join(QStringLiteral(", "));
}

namespace {

// Draws the whole picture (title, then the head view) into `painter` over width x height.
void drawPicture(QPainter& painter, const HeadLines& lines, const HeadViewLook& look,
                 const QString& title, double width, double height, bool transparent) {
  if (!transparent) painter.fillRect(QRectF(0, 0, width, height), look.background);
  painter.setPen(look.ink);
  QFont titleFont = look.font;
  titleFont.setBold(true);
  painter.setFont(titleFont);
  painter.drawText(QRectF(8, 4, width - 16, 24), Qt::AlignLeft | Qt::AlignVCenter, title);
  paintHeadLines(painter, lines, look);
}

QString checkPath(const QString& path, const QString& ext) {
  if (ext != QLatin1String("png") && ext != QLatin1String("svg") && ext != QLatin1String("pdf")) {
    return QCoreApplication::translate(
               "mhaviz::ui::HeadView",
               "cannot export to '%1': unknown image type '%2'; use a file name ending in .png, "
               ".svg or .pdf")
        .arg(path, ext.isEmpty()
                       ? QCoreApplication::translate("mhaviz::ui::HeadView", "(no extension)")
                       : QStringLiteral(".") + ext);
  }
  const QDir dir = QFileInfo(path).absoluteDir();
  if (!dir.exists()) {
    return QCoreApplication::translate(
               "mhaviz::ui::HeadView",
               "cannot write '%1': the folder '%2' does not exist; create it or choose another "
               "folder")
        .arg(path, dir.path());
  }
  return {};
}

}  // namespace

QString exportHeadView(const mhaviz::ForwardResult& result, const ViewOptions& view,
                       const HeadViewChoice& choice, const ExportOptions& options,
                       const QString& path) {
  try {
    const QString ext = QFileInfo(path).suffix().toLower();
    if (QString bad = checkPath(path, ext); !bad.isEmpty()) return bad;
    if (options.width < 200 || options.height < 100 || options.width > 20000 ||
        options.height > 20000) {
      return QCoreApplication::translate(
                 "mhaviz::ui::HeadView",
                 "cannot export a %1x%2 head view: the width must be 200 to 20000 pixels and the "
                 "height 100 to 20000")
          .arg(options.width)
          .arg(options.height);
    }
    if (!(options.scale > 0 && options.scale <= 16)) {
      return QCoreApplication::translate(
                 "mhaviz::ui::HeadView",
                 "cannot export with scale %1: use a scale above 0 and at most 16")
          .arg(options.scale);
    }
    if (qobject_cast<QApplication*>(QCoreApplication::instance()) == nullptr) {
      return QCoreApplication::translate("mhaviz::ui::HeadView",
                                         "image export needs a QApplication (run with a display or "
                                         "QT_QPA_PLATFORM=offscreen)");
    }
    const StageData data = headViewData(result, view);
    const std::vector<int> heads = headsShown(view, static_cast<int>(result.H), choice.chosen);
    HeadViewLook look;  // light, whatever the window's theme: a picture for paper and slides
    look.colormap = view.colormap;
    look.font = QApplication::font();
    const double top = 32;  // the title
    const HeadLinesOptions lineOptions =
        headLinesOptions(data, view.queryLabels, heads, choice, headViewStage(result, view),
                         look.font, QSizeF(options.width, options.height), top);
    const HeadLines lines = layoutHeadLines(data, view.queryLabels, lineOptions);
    const QString title =
        options.title.isEmpty()
            ? describeConfig(result.config, view.batch) + QStringLiteral(" \u2014 ") +
                  QCoreApplication::translate("mhaviz::ui::HeadView", "head view") +
                  QStringLiteral(", ") + headViewCaption(result, view, heads, choice, lines)
            : options.title;
    const int width = options.width;
    // Rows no taller than the font allows: a short sentence leaves no empty half picture.
    double bottom = 0;
    for (const TokenSlot& t : lines.queries) bottom = std::max(bottom, t.box.bottom());
    for (const TokenSlot& t : lines.keys) bottom = std::max(bottom, t.box.bottom());
    const int height = static_cast<int>(std::ceil(std::min(lines.height, bottom + 12)));

    QString failure;
    struct WriteFailed {};
    try {
      mhaviz::io::replace_file_atomic(
          QFile::encodeName(path).toStdString(), [&](const std::filesystem::path& tmp) {
            const QString part = QFile::decodeName(tmp.c_str());
            bool ok = true;
            if (ext == QLatin1String("png")) {
              QImage image(QSize(static_cast<int>(width * options.scale),
                                 static_cast<int>(height * options.scale)),
                           QImage::Format_ARGB32_Premultiplied);
              image.setDevicePixelRatio(options.scale);
              image.fill(Qt::transparent);
              image.setDotsPerMeterX(static_cast<int>(96 * options.scale / 0.0254));
              image.setDotsPerMeterY(static_cast<int>(96 * options.scale / 0.0254));
              QPainter painter(&image);
              drawPicture(painter, lines, look, title, width, height, options.transparent);
              painter.end();
              ok = image.save(part, "PNG");
            } else if (ext == QLatin1String("svg")) {
              QSvgGenerator generator;  // text stays text
              generator.setFileName(part);
              generator.setSize(QSize(width, height));
              generator.setViewBox(QRect(0, 0, width, height));
              generator.setTitle(title);
              generator.setDescription(QStringLiteral("mhaviz head view"));
              QPainter painter;
              ok = painter.begin(&generator);
              if (ok) {
                drawPicture(painter, lines, look, title, width, height, options.transparent);
                painter.end();
              }
            } else {
              QPdfWriter writer(part);
              writer.setTitle(title);
              writer.setCreator(QStringLiteral("mhaviz"));
              writer.setResolution(96);
              writer.setPageSize(QPageSize(QSizeF(width, height), QPageSize::Point));
              writer.setPageMargins(QMarginsF(0, 0, 0, 0));
              QPainter painter;
              ok = painter.begin(&writer);
              if (ok) {
                const double s = writer.width() / static_cast<double>(width);
                painter.scale(s, s);
                drawPicture(painter, lines, look, title, width, height, false);
                painter.end();
              }
            }
            if (ok && QFileInfo(part).size() > 0) return;
            failure = QCoreApplication::translate(
                          "mhaviz::ui::HeadView",
                          "cannot write '%1': the %2 file could not be written (disk full or no "
                          "permission?)")
                          .arg(path, ext.toUpper());
            throw WriteFailed{};
          });
    } catch (const WriteFailed&) {
      return failure;
    }
    return {};
  } catch (const std::exception& e) {
    return QString::fromUtf8(e.what());
  }
}

}  // namespace mhaviz::ui
