#pragma once
// What the text view shows of a result and how it is painted: the maps it reads (the head
// view's stage, one map per head and the heads' average last), the shade colours, painting a
// TextShades layout with QPainter, and export to PNG/SVG/PDF (the window and mhaviz-cli export
// --view text draw the same picture). GUI thread for painting and export.

#include <QColor>
#include <QFont>
#include <QRectF>
#include <QString>

#include "mhaviz/core/forward/result.hpp"
#include "render/image_export.hpp"
#include "stages/stage_data.hpp"
#include "stages/view_options.hpp"
#include "tokens/picture_file.hpp"
#include "tokens/text_shades.hpp"

class QPainter;

namespace mhaviz::ui {

/// The text view's state besides the grid's view: the head (-1: the heads' average, or their
/// sum for value norms) and the query shown (hovered, pinned or, with none, the last).
struct TextViewChoice {
  int head = -1;
  int query = -1;  // -1: the last query
};

/// One map per head of headViewStage, then the heads' average (the sum of value norms):
/// maps[h] is head h, maps[H] the average. Described, not copied (`result` must outlive it);
/// throws as headViewData does (missing batch element, more than kHeadViewMaxTokens). Value
/// norms are read from `measures` (the result's; null: none).
StageData textViewData(const mhaviz::ForwardResult& result, const ViewOptions& view,
                       const mhaviz::ResultMeasures* measures = nullptr);

/// The map the text view shades with: the grid's solo head, else choice.head, else the
/// average (the last map).
int textViewMap(const ViewOptions& view, const TextViewChoice& choice, const StageData& data);

/// The query shown: choice.query when it exists, else the last query.
int textViewQuery(const TextViewChoice& choice, const StageData& data);

/// The colour of a shade of 1: the head's colour, a dark grey for the average.
QColor textShadeColor(int head);

/// Colours and font of a painted text view.
struct TextViewLook : TokenLook {
  QColor shade = QColor(80, 80, 80);  // the colour of a shade of 1
};

/// The layout options for `data` as `view` and `choice` say, in `font`, `width` wide, with a
/// picture in the chip of each token that `pictures` has one for.
TextShadeOptions textShadeOptions(const StageData& data, const ViewOptions& view,
                                  const TextViewChoice& choice, const QFont& font, double width,
                                  double top, const TokenPictureList& pictures = {});

/// Paints `shades`: the headings, the query tokens (the one shown outlined), the key tokens
/// shaded, masked keys faint, the bias_k / zero chips framed in the grid's extra-key colour, the
/// tokens' pictures (look.pictures) where the layout placed them; only what meets `visible`
/// (null: all).
void paintTextShades(QPainter& painter, const TextShades& shades, const TextViewLook& look,
                     const QRectF& visible = {});

/// "weights, head 1, query 3 "sat": darkest 0.42": what the picture shows.
QString textViewCaption(const mhaviz::ForwardResult& result, const ViewOptions& view,
                        const StageData& data, int map, const TextShades& shades,
                        const QStringList& queryLabels,
                        const mhaviz::ResultMeasures* measures = nullptr);

/// The text view of `result` as `view` and `choice` say, options.width wide and as tall as its
/// text: the title (options.title; empty: describeConfig + "text view") and the caption wrapped
/// above. Its width and height are the file's. Throws InvalidInput as textViewData does.
/// `pictures`: the image whose patches the tokens are (null: none), drawn in their chips.
PictureSource textViewPicture(const mhaviz::ForwardResult& result, const ViewOptions& view,
                              const TextViewChoice& choice, const ExportOptions& options,
                              const mhaviz::ResultMeasures* measures = nullptr,
                              const mhaviz::model::PatchPictures* pictures = nullptr);

/// Empty when options' width is one a text view can be exported at, else the message.
QString checkTextViewSize(const ExportOptions& options);

/// Writes the text view of `result` as `view` and `choice` say to PNG/SVG/PDF (by the
/// extension of `path`), options.width wide, as tall as its text; options.title above it
/// (empty: describeConfig + caption); `pictures` as textViewPicture's. Empty on success, else
/// a user-readable error (never throws).
QString exportTextView(const mhaviz::ForwardResult& result, const ViewOptions& view,
                       const TextViewChoice& choice, const ExportOptions& options,
                       const QString& path, const mhaviz::ResultMeasures* measures = nullptr,
                       const mhaviz::model::PatchPictures* pictures = nullptr);

}  // namespace mhaviz::ui
