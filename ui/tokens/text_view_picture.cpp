// The text view's maps, colours, painting and export (text_view_picture.hpp).
#include "tokens/text_view_picture.hpp"

#include <QApplication>
#include <QCoreApplication>
#include <QFontMetricsF>
#include <QPainter>
#include <algorithm>
#include <cmath>
#include <exception>
#include <memory>

#include "render/colormaps.hpp"
#include "tokens/head_view_picture.hpp"
#include "tokens/picture_file.hpp"

namespace mhaviz::ui {

namespace {

// The colour a chip of `shade` has over `background`.
QColor mixed(const QColor& background, const QColor& full, double shade) {
  const auto mix = [&](int b, int f) {
    return static_cast<int>(std::lround(b + (f - b) * std::clamp(shade, 0.0, 1.0)));
  };
  return {mix(background.red(), full.red()), mix(background.green(), full.green()),
          mix(background.blue(), full.blue())};
}

}  // namespace

StageData textViewData(const mhaviz::ForwardResult& result, const ViewOptions& view,
                       const mhaviz::ResultMeasures* measures) {
  headViewData(result, view, measures);  // the same limits and messages
  ViewOptions v = view;
  v.stage = headViewStage(result, view, measures);
  v.soloHead = -1;
  v.showAverage = true;
  return extractStage(result, v, ExtractMode::describe, measures);
}

int textViewMap(const ViewOptions& view, const TextViewChoice& choice, const StageData& data) {
  const int maps = static_cast<int>(data.maps.size());
  if (view.soloHead >= 0 && view.soloHead < maps - 1) return view.soloHead;
  if (choice.head >= 0 && choice.head < maps - 1) return choice.head;
  return maps - 1;
}

int textViewQuery(const TextViewChoice& choice, const StageData& data) {
  const int rows = data.maps.empty() ? 0 : data.maps.front().rows;
  if (choice.query >= 0 && choice.query < rows) return choice.query;
  return rows - 1;
}

QColor textShadeColor(int head) { return head >= 0 ? headColor(head) : QColor(80, 80, 80); }

TextShadeOptions textShadeOptions(const StageData& data, const ViewOptions& view,
                                  const TextViewChoice& choice, const QFont& font, double width,
                                  double top, const TokenPictureList& pictures) {
  TextShadeOptions options;
  options.map = textViewMap(view, choice, data);
  options.query = textViewQuery(choice, data);
  options.oneText = oneTextFor(data, view.queryLabels);
  options.width = width;
  options.top = top;
  options.font = font;
  options.queryHeading = QCoreApplication::translate("mhaviz::ui::TextView", "Queries");
  options.keyHeading = QCoreApplication::translate(
      "mhaviz::ui::TextView", "Keys, shaded by the weight the query gives them");
  options.pictures.reserve(pictures.size());
  for (const QImage& picture : pictures) options.pictures.push_back(!picture.isNull());
  return options;
}

void paintTextShades(QPainter& painter, const TextShades& shades, const TextViewLook& look,
                     const QRectF& visible) {
  painter.save();
  painter.setRenderHint(QPainter::Antialiasing, true);
  painter.setFont(look.font);
  QFont bold = look.font;
  bold.setBold(true);
  const auto shown = [&](const QRectF& box) { return visible.isNull() || box.intersects(visible); };
  painter.setPen(look.faint);
  if (!shades.queryHeadingText.isEmpty()) {
    painter.drawText(shades.queryHeading, Qt::AlignLeft | Qt::AlignVCenter,
                     shades.queryHeadingText);
  }
  if (!shades.keyHeadingText.isEmpty()) {
    painter.drawText(shades.keyHeading, Qt::AlignLeft | Qt::AlignVCenter, shades.keyHeadingText);
  }
  const bool oneText = shades.queries.empty();
  // The query tokens (two texts): framed faintly, the one shown outlined and bold.
  for (std::size_t i = 0; i < shades.queries.size(); ++i) {
    const TextToken& t = shades.queries[i];
    if (!shown(t.box)) continue;
    const bool chosen = static_cast<int>(i) == shades.query;
    QColor frame = chosen ? look.ink : look.faint;
    painter.setPen(QPen(frame, chosen ? 2.0 : 1.0));
    painter.setBrush(Qt::NoBrush);
    painter.drawRoundedRect(t.box.adjusted(1, 1, -1, -1), 3, 3);
    QRectF text = t.box;
    if (!t.picture.isEmpty()) {
      paintTokenPicture(painter, t.picture, tokenPicture(look.pictures, static_cast<int>(i)),
                        look.faint);
      text.setLeft(t.picture.right());
    }
    painter.setPen(look.ink);
    painter.setFont(chosen ? bold : look.font);
    painter.drawText(text, Qt::AlignCenter, t.text);
  }
  for (std::size_t j = 0; j < shades.keys.size(); ++j) {
    const TextToken& t = shades.keys[j];
    if (!shown(t.box)) continue;
    const bool extra = t.kind != mhaviz::KeyKind::source;
    const QColor fill = mixed(look.background, look.shade, t.shade);
    painter.setPen(Qt::NoPen);
    painter.setBrush(fill);
    painter.drawRoundedRect(t.box, 3, 3);
    painter.setBrush(Qt::NoBrush);
    const bool chosen = oneText && static_cast<int>(j) == shades.query;
    if (extra) {
      painter.setPen(QPen(extraKeyColor(), 1.5));
      painter.drawRoundedRect(t.box.adjusted(0.75, 0.75, -0.75, -0.75), 3, 3);
    } else if (t.masked) {
      painter.setPen(QPen(look.faint, 1, Qt::DashLine));
      painter.drawRoundedRect(t.box.adjusted(0.5, 0.5, -0.5, -0.5), 3, 3);
    }
    if (chosen) {
      painter.setPen(QPen(look.ink, 2));
      painter.drawRoundedRect(t.box.adjusted(1, 1, -1, -1), 3, 3);
    }
    QColor ink = fill.lightnessF() < 0.5 ? QColor(Qt::white) : QColor(Qt::black);
    if (t.masked) ink = look.faint;
    if (fill == look.background && !t.masked) ink = look.ink;
    QRectF text = t.box;
    if (!t.picture.isEmpty()) {
      paintTokenPicture(painter, t.picture, tokenPicture(look.pictures, static_cast<int>(j)),
                        look.faint);
      text.setLeft(t.picture.right());
    }
    painter.setPen(ink);
    painter.setFont(chosen ? bold : look.font);
    painter.drawText(text, Qt::AlignCenter, t.text);
  }
  painter.restore();
}

QString textViewCaption(const mhaviz::ForwardResult& result, const ViewOptions& view,
                        const StageData& data, int map, const TextShades& shades,
                        const QStringList& queryLabels, const mhaviz::ResultMeasures* measures) {
  QStringList parts;
  parts << shownStageName(headViewStage(result, view, measures));
  if (map >= 0 && map < static_cast<int>(data.maps.size()) - 1) {
    parts << QCoreApplication::translate("mhaviz::ui::TextView", "head %1").arg(map);
  } else if (!data.maps.empty()) {
    parts << data.maps.back().shownTitle;
  }
  if (shades.query >= 0) {
    const QString label = shades.query < queryLabels.size() && !queryLabels[shades.query].isEmpty()
                              ? queryLabels[shades.query]
                              : QString::number(shades.query);
    QString query = QCoreApplication::translate("mhaviz::ui::TextView", "query %1 \"%2\"")
                        .arg(shades.query)
                        .arg(label);
    if (shades.nan) {
      query += QStringLiteral(": ") +
               QCoreApplication::translate("mhaviz::ui::TextView",
                                           "every key masked, its weights are NaN");
    } else {
      query +=
          QStringLiteral(": ") + QCoreApplication::translate("mhaviz::ui::TextView", "darkest %1")
                                     .arg(shades.largest, 0, 'g', 3);
    }
    parts << query;
  }
  return parts.join(QStringLiteral(", "));
}

PictureSource textViewPicture(const mhaviz::ForwardResult& result, const ViewOptions& view,
                              const TextViewChoice& choice, const ExportOptions& options,
                              const mhaviz::ResultMeasures* measures,
                              const mhaviz::model::PatchPictures* pictures) {
  const StageData data = textViewData(result, view, measures);
  const int map = textViewMap(view, choice, data);
  auto look = std::make_shared<TextViewLook>();  // light, whatever the window's theme
  look->font = pictureFont();
  look->pictures = tokenPictures(pictures, result, view.batch);
  look->shade = textShadeColor(map < static_cast<int>(data.maps.size()) - 1 ? map : -1);
  QFont titleFont = look->font;
  titleFont.setBold(true);
  const double margin = 12;
  const double w = options.width - 2 * margin;
  const TextShadeOptions shadeOptions =
      textShadeOptions(data, view, choice, look->font, w, 0, look->pictures);
  auto shades =
      std::make_shared<const TextShades>(layoutTextShades(data, view.queryLabels, shadeOptions));
  const QString caption =
      textViewCaption(result, view, data, map, *shades, view.queryLabels, measures);
  const QString title = options.title.isEmpty()
                            ? describeConfig(result.config, view.batch) +
                                  QStringLiteral(" \u2014 ") +
                                  QCoreApplication::translate("mhaviz::ui::TextView", "text view")
                            : options.title;
  // The title and the caption wrap onto as many lines as they need.
  const QRectF titleBox(margin, margin / 2, w, wrappedHeight(titleFont, title, w));
  const QRectF captionBox(margin, titleBox.bottom() + 4, w, wrappedHeight(look->font, caption, w));
  const double shadesTop = captionBox.bottom() + margin / 2;
  PictureSource source;
  source.width = options.width;
  source.height = static_cast<int>(std::ceil(shadesTop + shades->height + margin));
  source.title = title + QStringLiteral(", ") + caption;
  source.description = QStringLiteral("mhaviz text view");
  source.background = look->background;
  source.paint = [=](QPainter& painter, bool) {
    painter.setFont(titleFont);
    painter.setPen(look->ink);
    painter.drawText(titleBox, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, title);
    painter.setFont(look->font);
    painter.drawText(captionBox, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, caption);
    painter.translate(margin, shadesTop);
    paintTextShades(painter, *shades, *look);
  };
  return source;
}

QString checkTextViewSize(const ExportOptions& options) {
  if (options.width < 200 || options.width > 20000) {
    return QCoreApplication::translate(
               "mhaviz::ui::TextView",
               "cannot export a text view %1 pixels wide: the width must be 200 to 20000")
        .arg(options.width);
  }
  return {};
}

QString exportTextView(const mhaviz::ForwardResult& result, const ViewOptions& view,
                       const TextViewChoice& choice, const ExportOptions& options,
                       const QString& path, const mhaviz::ResultMeasures* measures,
                       const mhaviz::model::PatchPictures* pictures) {
  return exportPicture(path, options, checkTextViewSize, [&] {
    return textViewPicture(result, view, choice, options, measures, pictures);
  });
}

}  // namespace mhaviz::ui
