// The head view's stage, colours, painting and export (head_view_picture.hpp).
#include "tokens/head_view_picture.hpp"

#include <QApplication>
#include <QCoreApplication>
#include <QFontMetricsF>
#include <QPainter>
#include <QSet>
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <exception>
#include <memory>

#include "mhaviz/core/analysis/measures.hpp"
#include "mhaviz/core/base/errors.hpp"
#include "render/colormaps.hpp"
#include "tokens/picture_file.hpp"

namespace mhaviz::ui {

namespace {

constexpr double kHeadingHeight = 18;
constexpr double kLineSpan = 120;  // the least room between the two columns for the lines
// `top` drawn over `bottom` (colours not premultiplied): one colour that blends onto any
// background as the two did, one after the other.
QRgb sourceOver(QRgb top, QRgb bottom) {
  const double ta = qAlpha(top) / 255.0;
  const double ba = qAlpha(bottom) / 255.0 * (1 - ta);
  const double alpha = ta + ba;
  if (alpha <= 0) return 0;
  const auto mix = [&](int t, int b) {
    return static_cast<int>(std::lround((t * ta + b * ba) / alpha));
  };
  return qRgba(mix(qRed(top), qRed(bottom)), mix(qGreen(top), qGreen(bottom)),
               mix(qBlue(top), qBlue(bottom)), static_cast<int>(std::lround(alpha * 255)));
}

}  // namespace

QColor headColor(int head) {
  // Okabe & Ito (2008), "Color Universal Design" (black left out): blue, orange, bluish green,
  // reddish purple, sky blue, vermillion, yellow; then nine chosen from Paul Tol's and IBM's
  // colour-blind-safe sets, each as far (CIELAB) from those before it as the set allows, seen
  // with normal vision and simulated protanopia and deuteranopia (Viénot 1999): every two of
  // the sixteen differ by at least 12 there. Past sixteen heads the colours repeat: head h has
  // head h mod 16's colour (the chips and the hover text give the head's number).
  static const std::array<QColor, kDistinctHeadColors> palette = {
      QColor(0, 114, 178),   QColor(230, 159, 0),  QColor(0, 158, 115),  QColor(204, 121, 167),
      QColor(86, 180, 233),  QColor(213, 94, 0),   QColor(240, 228, 66), QColor(26, 133, 255),
      QColor(136, 34, 85),   QColor(128, 186, 90), QColor(17, 119, 51),  QColor(238, 102, 119),
      QColor(187, 187, 187), QColor(127, 60, 141), QColor(0, 108, 209),  QColor(153, 79, 0)};
  return palette[static_cast<std::size_t>(std::max(head, 0)) % palette.size()];
}

Stage headViewStage(const mhaviz::ForwardResult& result, const ViewOptions& view,
                    const mhaviz::ResultMeasures* measures) {
  if (view.stage == Stage::value_norms && measures && measures->norms) {
    return Stage::value_norms;
  }
  if (view.stage == Stage::weights_before_dropout && result.weights_before_dropout) {
    return Stage::weights_before_dropout;
  }
  return Stage::weights;
}

StageData headViewData(const mhaviz::ForwardResult& result, const ViewOptions& view,
                       const mhaviz::ResultMeasures* measures) {
  if (result.L > kHeadViewMaxTokens || result.S > kHeadViewMaxTokens) {
    throw mhaviz::InvalidInput(
        QCoreApplication::translate(
            "mhaviz::ui::HeadView",
            "the token views draw up to %1 queries and %1 keys; this result has L=%2 and S=%3. "
            "Use the grid, or shorten the sequences")
            .arg(kHeadViewMaxTokens)
            .arg(result.L)
            .arg(result.S)
            .toStdString());
  }
  ViewOptions v = view;
  v.stage = headViewStage(result, view, measures);
  v.soloHead = -1;
  v.showAverage = false;
  return extractStage(result, v, ExtractMode::describe, measures);
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

namespace {

// The label column is at most this wide (longer labels are elided); 24 px are the NaN mark's.
constexpr double kMaxLabelColumn = 180.0;
constexpr double kLabelMark = 24.0;

}  // namespace

double headLabelsWidth(const StageData& data, const QStringList& queryLabels, const QFont& font) {
  const QFontMetricsF metrics(font);
  const double enough = kMaxLabelColumn - kLabelMark;  // wider labels give the same column
  double widest =
      metrics.horizontalAdvance(QCoreApplication::translate("mhaviz::ui::HeadView", "query"));
  QSet<QString> measured;
  const auto measure = [&](const QString& label) {
    if (widest >= enough || measured.contains(label)) return;
    measured.insert(label);
    widest = std::max(widest, metrics.horizontalAdvance(label));
  };
  for (const QString& label : queryLabels) measure(label);
  if (!data.maps.empty()) {
    for (const ColumnInfo& c : data.maps.front().columns) measure(c.label);
    // Row numbers: the widest has the most digits; each digit is measured once.
    const int rows = data.maps.front().rows;
    if (rows > 0 && widest < enough) {
      double digit[10];
      for (int d = 0; d < 10; ++d) digit[d] = metrics.horizontalAdvance(QChar(u'0' + d));
      for (int i = 0; i < rows; ++i) {
        double w = 0;
        for (int n = i;; n /= 10) {
          w += digit[n % 10];
          if (n < 10) break;
        }
        widest = std::max(widest, w);
      }
    }
  }
  return widest;
}

HeadLinesOptions headLinesOptions(const StageData& data, const QStringList& queryLabels,
                                  const std::vector<int>& heads, const HeadViewChoice& choice,
                                  Stage stage, const QFont& font, QSizeF size, double top,
                                  bool pictures) {
  return headLinesOptions(headLabelsWidth(data, queryLabels, font), heads, choice, stage, font,
                          size, top, pictures);
}

HeadLinesOptions headLinesOptions(double labelsWidth, const std::vector<int>& heads,
                                  const HeadViewChoice& choice, Stage stage, const QFont& font,
                                  QSizeF size, double top, bool pictures) {
  HeadLinesOptions options;
  options.heads = heads;
  options.coverage = choice.coverage;
  options.hoverQuery = choice.query;
  options.hoverKey = choice.key;
  options.unitWeights = stage != Stage::value_norms;
  options.size = size;
  options.top = top + kHeadingHeight;
  const QFontMetricsF metrics(font);
  options.labelWidth = std::min(labelsWidth + kLabelMark, kMaxLabelColumn);  // the NaN mark's room
  if (pictures) {
    options.pictureWidth = std::round(metrics.height() * 2);
    options.labelWidth += options.pictureWidth + 4;
  }
  // Notes: a column per head where the width allows, else one (the strongest head's weight).
  const double note = metrics.horizontalAdvance(QStringLiteral("0.00 "));
  const double perHead = note * static_cast<double>(std::max<std::size_t>(heads.size(), 1)) + 8;
  const double budget = (size.width() - 2 * options.labelWidth - kLineSpan) / 2;
  options.noteWidth = std::clamp(budget, note + 8, perHead);
  options.size.setWidth(
      std::max(size.width(), 2 * (options.labelWidth + options.noteWidth) + kLineSpan));
  options.maxRowHeight = std::max(32.0, metrics.height() * 2.4);
  options.minRowHeight = metrics.height() + 2;
  return options;
}

void paintHeadTokens(QPainter& painter, const HeadLines& lines, const HeadViewLook& look,
                     const QRectF& visible) {
  painter.save();
  painter.setRenderHint(QPainter::Antialiasing, true);
  painter.setFont(look.font);
  const QFontMetricsF metrics(look.font);
  const auto shown = [&](const QRectF& box) {
    return visible.isNull() || (box.bottom() >= visible.top() && box.top() <= visible.bottom());
  };

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
  for (std::size_t i = 0; i < lines.queries.size(); ++i) {
    const TokenSlot& q = lines.queries[i];
    if (!shown(q.box)) continue;
    // The picture next to the lines, the text (and the NaN mark) before it.
    const double right = q.picture.isEmpty() ? q.box.right() : q.picture.left() - 4;
    QRectF text = q.box;
    text.setRight(right - 4);
    if (!q.picture.isEmpty()) {
      paintTokenPicture(painter, q.picture, tokenPicture(look.pictures, static_cast<int>(i)),
                        look.faint);
    }
    if (q.nan) {
      // The grid's NaN colour: every key of this query is masked.
      const double side = std::min(q.box.height() - 6, 10.0);
      const QRectF mark(right - side - 2, q.box.center().y() - side / 2, side, side);
      painter.fillRect(mark, nanColor(look.colormap));
      text.setRight(mark.left() - 4);
    }
    painter.setPen(look.ink);
    painter.setFont(static_cast<int>(i) == lines.hoveredQuery ? bold : look.font);
    painter.drawText(text, Qt::AlignRight | Qt::AlignVCenter,
                     metrics.elidedText(q.label, Qt::ElideRight, text.width()));
  }
  for (std::size_t j = 0; j < lines.keys.size(); ++j) {
    const TokenSlot& k = lines.keys[j];
    if (!shown(k.box)) continue;
    QRectF text = k.box.adjusted(4, 0, 0, 0);
    if (!k.picture.isEmpty()) {
      if (k.kind == mhaviz::KeyKind::source) {
        paintTokenPicture(painter, k.picture, tokenPicture(look.pictures, static_cast<int>(j)),
                          look.faint);
      }
      text.setLeft(k.picture.right() + 4);
    }
    painter.setPen(k.kind == mhaviz::KeyKind::source ? look.ink : extraKeyColor());
    painter.setFont(static_cast<int>(j) == lines.hoveredKey ? bold : look.font);
    painter.drawText(text, Qt::AlignLeft | Qt::AlignVCenter,
                     metrics.elidedText(k.label, Qt::ElideRight, text.width()));
  }
  painter.setFont(look.font);
  if (lines.firstExtraKey >= 0 && !lines.keys.empty()) {
    const QRectF k = lines.keys.front().box;
    painter.setPen(QPen(extraKeyColor(), 1, Qt::DashLine));
    painter.drawLine(QPointF(k.left(), lines.separatorY), QPointF(k.right(), lines.separatorY));
  }

  // Weights written beside the tokens of the hovered one: one column per head drawn, or where
  // they do not fit, the strongest head's weight alone (in its colour).
  if (!lines.notes.empty()) {
    const int columns = std::max(lines.headCount, 1);
    const bool perHead =
        (lines.noteWidth - 8) / columns >= metrics.horizontalAdvance(QStringLiteral("0.00 "));
    const double noteWidth = perHead ? (lines.noteWidth - 8) / columns : lines.noteWidth - 8;
    std::vector<const WeightNote*> strongest;
    if (!perHead) {
      const std::size_t rows = lines.notesAtKeys ? lines.keys.size() : lines.queries.size();
      strongest.assign(rows, nullptr);
      for (const WeightNote& n : lines.notes) {
        const WeightNote*& s = strongest[static_cast<std::size_t>(n.row)];
        if (s == nullptr || n.weight > s->weight) s = &n;
      }
    }
    for (const WeightNote& n : lines.notes) {
      if (!perHead && strongest[static_cast<std::size_t>(n.row)] != &n) continue;
      const bool keySide = lines.notesAtKeys;
      const TokenSlot& slot = keySide ? lines.keys[static_cast<std::size_t>(n.row)]
                                      : lines.queries[static_cast<std::size_t>(n.row)];
      if (!shown(slot.box)) continue;
      const double column = perHead ? n.slot * noteWidth : 0.0;
      const double x = (keySide ? lines.keyNoteX : lines.queryNoteX) + 4 + column;
      painter.setPen(headColor(n.head).darker(look.background.lightnessF() > 0.5 ? 130 : 70));
      painter.drawText(QRectF(x, slot.box.top(), noteWidth, slot.box.height()),
                       Qt::AlignLeft | Qt::AlignVCenter, QString::number(n.weight, 'f', 2));
    }
  }
  painter.restore();
}

mhaviz::PageVector<RasterLine> headRasterLines(const HeadLines& lines, const QRectF& band) {
  // Which tokens stand in the band (their row within a row of it).
  const auto inBand = [&](const std::vector<TokenSlot>& tokens) {
    std::vector<unsigned char> out(tokens.size(), 1);
    if (band.isNull()) return out;
    const double margin = lines.rowHeight;
    for (std::size_t i = 0; i < tokens.size(); ++i) {
      const double y = tokens[i].anchor.y();
      out[i] = y >= band.top() - margin && y <= band.bottom() + margin ? 1 : 0;
    }
    return out;
  };
  const std::vector<unsigned char> queryIn = inBand(lines.queries), keyIn = inBand(lines.keys);
  const auto drawn = [&](const HeadLine& l) {
    return queryIn[static_cast<std::size_t>(l.query)] != 0 ||
           keyIn[static_cast<std::size_t>(l.key)] != 0;
  };
  // Many lines (in the whole picture, so that a line looks the same in every band): the faint
  // ones a haze (kManyLines), the faint lines of one query -> key pair (one per head) on the same
  // pixels, one line of their colours composited (at the place of the first of them).
  const bool many = lines.lines.size() > kManyLines;
  const std::size_t keys = lines.keys.size();
  std::vector<std::uint32_t> faintOfPair;  // 1 + its place in `out`, 0: none yet
  if (many) faintOfPair.assign(lines.queries.size() * keys, 0);
  mhaviz::PageVector<RasterLine> out;
  out.reserve(many ? faintOfPair.size() : lines.lines.size());  // enough, but for strong lines
  for (const HeadLine& l : lines.lines) {
    if (!drawn(l)) continue;
    QColor c = headColor(l.head);
    c.setAlphaF(static_cast<float>(std::clamp(l.alpha, 0.0, 1.0)));
    const QRgb colour = c.rgba();
    const QPointF& from = lines.queries[static_cast<std::size_t>(l.query)].anchor;
    const QPointF& to = lines.keys[static_cast<std::size_t>(l.key)].anchor;
    if (many && l.alpha < kFaintLine) {
      std::uint32_t& at =
          faintOfPair[static_cast<std::size_t>(l.query) * keys + static_cast<std::size_t>(l.key)];
      if (at != 0) {
        RasterLine& pair = out[at - 1];
        pair.colour = sourceOver(colour, pair.colour);
      } else {
        out.push_back({from, to, colour, 0});
        at = static_cast<std::uint32_t>(out.size());
      }
      continue;
    }
    // Width grows a little with the weight, opacity is the weight.
    out.push_back({from, to, colour, 1.0 + 2.0 * l.alpha});
  }
  return out;
}

QImage rasterHeadLines(const HeadLines& lines, const QRectF& band, double scale,
                       const std::atomic<bool>* cancelled) {
  QImage image(QSize(static_cast<int>(std::ceil(band.width() * scale)),
                     static_cast<int>(std::ceil(band.height() * scale))),
               QImage::Format_ARGB32_Premultiplied);
  if (image.isNull()) return image;
  image.fill(Qt::transparent);
  image.setDevicePixelRatio(scale);
  rasterLines(image, headRasterLines(lines, band), band.topLeft(), scale, cancelled);
  if (cancelled != nullptr && cancelled->load()) return {};
  return image;
}

void paintHeadLines(QPainter& painter, const HeadLines& lines, const HeadViewLook& look) {
  painter.save();
  painter.setRenderHint(QPainter::Antialiasing, true);
  for (const RasterLine& l : headRasterLines(lines)) {
    if (qAlpha(l.colour) == 0) continue;  // nothing to see; an SVG element fewer
    painter.setPen(QPen(QColor::fromRgba(l.colour), l.width, Qt::SolidLine, Qt::FlatCap));
    painter.drawLine(l.from, l.to);
  }
  painter.restore();
  paintHeadTokens(painter, lines, look);
}

QString headTokenText(TokenHit hit, const HeadLines& lines) {
  if (hit.side == TokenHit::Side::none || hit.row < 0) return {};
  if (hit.side == TokenHit::Side::query) {
    if (static_cast<std::size_t>(hit.row) >= lines.queries.size()) return {};
    const TokenSlot& q = lines.queries[static_cast<std::size_t>(hit.row)];
    if (q.nan) {
      return QCoreApplication::translate(
                 "mhaviz::ui::HeadView",
                 "query %1 \"%2\": NaN: every key of this query is masked, so softmax divides 0 "
                 "by 0 (add_zero_attn or add_bias_kv add a key that is never masked)")
          .arg(hit.row)
          .arg(q.label);
    }
    return QCoreApplication::translate("mhaviz::ui::HeadView", "query %1 \"%2\": lines drawn: %3")
        .arg(hit.row)
        .arg(q.label)
        .arg(lines.lines.size());
  }
  if (static_cast<std::size_t>(hit.row) >= lines.keys.size()) return {};
  const TokenSlot& k = lines.keys[static_cast<std::size_t>(hit.row)];
  switch (k.kind) {
    case mhaviz::KeyKind::bias_k:
      return QCoreApplication::translate(
          "mhaviz::ui::HeadView",
          "key bias_k (appended by add_bias_kv): a key only, it has no query row");
    case mhaviz::KeyKind::zero:
      return QCoreApplication::translate(
          "mhaviz::ui::HeadView",
          "key zero (all-zero key appended by add_zero_attn): a key only, it has no query "
          "row");
    case mhaviz::KeyKind::source:
      break;
  }
  return QCoreApplication::translate("mhaviz::ui::HeadView", "key %1 \"%2\": lines into it: %3")
      .arg(hit.row)
      .arg(k.label)
      .arg(lines.lines.size());
}

QString headViewCaption(const mhaviz::ForwardResult& result, const ViewOptions& view,
                        const std::vector<int>& heads, const HeadViewChoice& choice,
                        const HeadLines& lines, const mhaviz::ResultMeasures* measures) {
  QStringList parts;
  parts << shownStageName(headViewStage(result, view, measures));
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

HeadViewPictureLayout headViewPictureLayout(const mhaviz::ForwardResult& result,
                                            const ViewOptions& view, const HeadViewChoice& choice,
                                            const ExportOptions& options,
                                            const mhaviz::ResultMeasures* measures, bool pictures) {
  const StageData data = headViewData(result, view, measures);
  const std::vector<int> heads = headsShown(view, static_cast<int>(result.H), choice.chosen);
  HeadViewPictureLayout out;
  out.font = pictureFont();
  out.titleFont = out.font;
  out.titleFont.setBold(true);
  const double margin = 8;
  const auto layout = [&](double top) {
    const HeadLinesOptions lineOptions = headLinesOptions(
        data, view.queryLabels, heads, choice, headViewStage(result, view, measures), out.font,
        QSizeF(options.width, options.height), top, pictures);
    out.size = lineOptions.size;
    return layoutHeadLines(data, view.queryLabels, lineOptions);
  };
  // The caption's hidden-line count does not depend on where the columns start: one layout
  // finds the title, which wraps onto as many lines as it needs, the second places the columns
  // below it.
  out.title = options.title.isEmpty()
                  ? describeConfig(result.config, view.batch) + QStringLiteral(" \u2014 ") +
                        QCoreApplication::translate("mhaviz::ui::HeadView", "head view") +
                        QStringLiteral(", ") +
                        headViewCaption(result, view, heads, choice, layout(32), measures)
                  : options.title;
  const double titleHeight = wrappedHeight(out.titleFont, out.title, options.width - 2 * margin);
  out.lines = layout(titleHeight + 2 * margin);
  out.titleBox = QRectF(margin, margin, options.width - 2 * margin, titleHeight);
  return out;
}

PictureSource headViewPicture(const mhaviz::ForwardResult& result, const ViewOptions& view,
                              const HeadViewChoice& choice, const ExportOptions& options,
                              const mhaviz::ResultMeasures* measures,
                              const mhaviz::model::PatchPictures* pictures) {
  HeadViewPictureLayout laidOut = headViewPictureLayout(result, view, choice, options, measures,
                                                        picturesFit(pictures, result, view.batch));
  auto look = std::make_shared<HeadViewLook>();  // light, whatever the window's theme
  look->pictures = tokenPictures(pictures, result, view.batch);  // within the views' limit now
  look->colormap = view.colormap;
  look->font = laidOut.font;
  auto lines = std::make_shared<const HeadLines>(std::move(laidOut.lines));
  // Rows no taller than the font allows: a short sentence leaves no empty half picture.
  double bottom = 0;
  for (const TokenSlot& t : lines->queries) bottom = std::max(bottom, t.box.bottom());
  for (const TokenSlot& t : lines->keys) bottom = std::max(bottom, t.box.bottom());
  PictureSource source;
  source.width = static_cast<int>(std::ceil(laidOut.size.width()));
  source.height = static_cast<int>(std::ceil(std::min(lines->height, bottom + 12)));
  source.title = laidOut.title;
  source.description = QStringLiteral("mhaviz head view");
  source.background = look->background;
  source.raster = [lines](QImage& image) {
    rasterLines(image, headRasterLines(*lines), QPointF(0, 0), image.devicePixelRatio());
  };
  source.paint = [lines, look, title = laidOut.title, titleFont = laidOut.titleFont,
                  titleBox = laidOut.titleBox](QPainter& painter, bool rasterDone) {
    painter.setPen(look->ink);
    painter.setFont(titleFont);
    painter.drawText(titleBox, Qt::AlignLeft | Qt::AlignVCenter | Qt::TextWordWrap, title);
    if (rasterDone) {
      paintHeadTokens(painter, *lines, *look);
    } else {
      paintHeadLines(painter, *lines, *look);
    }
  };
  return source;
}

QString exportHeadView(const mhaviz::ForwardResult& result, const ViewOptions& view,
                       const HeadViewChoice& choice, const ExportOptions& options,
                       const QString& path, const mhaviz::ResultMeasures* measures,
                       const mhaviz::model::PatchPictures* pictures) {
  return exportPicture(path, options, checkHeadViewSize, [&] {
    return headViewPicture(result, view, choice, options, measures, pictures);
  });
}

QString checkHeadViewSize(const ExportOptions& options) {
  if (options.width < 200 || options.height < 100 || options.width > 20000 ||
      options.height > 20000) {
    return QCoreApplication::translate(
               "mhaviz::ui::HeadView",
               "cannot export a %1x%2 head view: the width must be 200 to 20000 pixels and the "
               "height 100 to 20000")
        .arg(options.width)
        .arg(options.height);
  }
  return {};
}

}  // namespace mhaviz::ui
