#pragma once
// What the head view shows of a result and how it is painted: the stage it draws (following
// the grid's), the heads, the head colours (the chips' colours too), painting a HeadLines
// layout with QPainter, and export to PNG/SVG/PDF (the window's Export button and mhaviz-cli
// export --view head draw the same picture). GUI thread for painting and export.

#include <QColor>
#include <QFont>
#include <QImage>
#include <QRectF>
#include <QString>
#include <atomic>
#include <vector>

#include "mhaviz/core/base/pages.hpp"
#include "mhaviz/core/forward/result.hpp"
#include "render/image_export.hpp"
#include "stages/stage_data.hpp"
#include "stages/view_options.hpp"
#include "tokens/head_lines.hpp"
#include "tokens/line_raster.hpp"
#include "tokens/picture_file.hpp"

class QPainter;

namespace mhaviz::ui {

/// How many heads have colours of their own.
inline constexpr int kDistinctHeadColors = 16;

/// Head h's colour: sixteen colour-blind-safe colours, Okabe and Ito's first (black left out),
/// distinct with normal vision and with protanopia and deuteranopia; past sixteen heads they
/// repeat (head h mod 16).
QColor headColor(int head);

/// The stage the head view draws for the grid's `view`: value norms when the grid shows them
/// and the result's `measures` (held beside it; null: none) have them, the weights before
/// dropout when the grid shows those, else the weights.
Stage headViewStage(const mhaviz::ForwardResult& result, const ViewOptions& view,
                    const mhaviz::ResultMeasures* measures = nullptr);

/// One map per head of headViewStage (maps[h] is head h; described, not copied: `result` must
/// outlive it). Throws InvalidInput for a missing batch element, and when L or S exceeds
/// kHeadViewMaxTokens (the message points to the grid; the bias_k / zero keys do not count).
/// Value norms are read from `measures`, which must outlive it as well.
StageData headViewData(const mhaviz::ForwardResult& result, const ViewOptions& view,
                       const mhaviz::ResultMeasures* measures = nullptr);

/// The heads drawn: view.soloHead alone when the grid shows one head, else the heads whose
/// entry of `chosen` is true (all when `chosen` is empty).
std::vector<int> headsShown(const ViewOptions& view, int heads, const std::vector<bool>& chosen);

/// The head view's state besides the grid's view: the heads chosen, the coverage, the hovered
/// (or, in an export, highlighted) token.
struct HeadViewChoice {
  std::vector<bool> chosen;  // per head; empty = all
  double coverage = 1.0;     // (0, 1]
  int query = -1, key = -1;
};

/// Colours and font of a painted head view.
struct HeadViewLook : TokenLook {
  Colormap colormap = Colormap::viridis;  // the NaN mark's colour is the grid's (nanColor)
};

/// Label and note column widths for `data`'s tokens in `font`, and the rest of the options. The
/// notes columns take a column per head where the width allows, else one (the strongest head's
/// weight); `size` grows to the narrowest picture the columns fit in with room for the lines
/// (a narrower dock scrolls sideways; an export comes out that wide). With `pictures` (the
/// tokens are an image's patches: token_pictures.hpp) each label's cell has room for a picture
/// two lines of text tall beside the text.
HeadLinesOptions headLinesOptions(const StageData& data, const QStringList& queryLabels,
                                  const std::vector<int>& heads, const HeadViewChoice& choice,
                                  Stage stage, const QFont& font, QSizeF size, double top,
                                  bool pictures = false);
/// The same with the widest label already measured (headLabelsWidth of the same data, labels
/// and font): the head view lays out again on every resize, hover and choice, and measuring
/// 512 query and key labels each time held the GUI thread up.
HeadLinesOptions headLinesOptions(double labelsWidth, const std::vector<int>& heads,
                                  const HeadViewChoice& choice, Stage stage, const QFont& font,
                                  QSizeF size, double top, bool pictures = false);
/// The width of the widest token label of `data` in `font`: the query labels (or row numbers),
/// the key columns' labels and the heading "query". Each distinct label is measured once, and
/// not at all where it cannot be wider than the widest so far, nor after the label column's
/// largest width is reached.
double headLabelsWidth(const StageData& data, const QStringList& queryLabels, const QFont& font);

/// Paints `lines` with QPainter's vector lines (SVG, PDF), then paintHeadTokens over them.
void paintHeadLines(QPainter& painter, const HeadLines& lines, const HeadViewLook& look);

/// Everything but the lines: the column headings (above at y = top - heading height), the
/// hovered token's band, the tokens (with their pictures, look.pictures, where the layout has
/// room for them), the NaN marks, the extra keys' separator and the notes; only the rows that
/// meet `visible` (null: all).
void paintHeadTokens(QPainter& painter, const HeadLines& lines, const HeadViewLook& look,
                     const QRectF& visible = {});

/// The lines of `lines` as the rasterizer draws them (head colour, opacity α, width 1 + 2α),
/// in drawing order; with a non-null `band`, only the lines with an end in it (the lines of the
/// visible tokens). Past kManyLines lines, the faint ones are a haze (head_lines.hpp): width 0,
/// those of one query -> key pair one line of their colours composited.
mhaviz::PageVector<RasterLine> headRasterLines(const HeadLines& lines, const QRectF& band = {});

/// The lines of `lines` with an end in `band` drawn on a transparent image of band's size times
/// `scale` (device pixels; its device pixel ratio is `scale`). Null when `cancelled` became true.
QImage rasterHeadLines(const HeadLines& lines, const QRectF& band, double scale,
                       const std::atomic<bool>* cancelled = nullptr);

/// What the token `hit` of `lines` is, for the status bar and the tooltip: a query and its lines
/// drawn (or why its row is NaN), a key and the lines into it, bias_k / zero with no query row.
QString headTokenText(TokenHit hit, const HeadLines& lines);

/// "weights, batch 0, heads 0, 1, coverage 90 % (12 lines hidden)": the picture's caption.
QString headViewCaption(const mhaviz::ForwardResult& result, const ViewOptions& view,
                        const std::vector<int>& heads, const HeadViewChoice& choice,
                        const HeadLines& lines, const mhaviz::ResultMeasures* measures = nullptr);

/// Where an exported head view puts things: the title (options.title; empty: describeConfig +
/// caption) wrapped in titleBox, the columns and lines below it, in `font`.
struct HeadViewPictureLayout {
  HeadLines lines;
  QString title;
  QRectF titleBox;
  QFont font, titleFont;
  QSizeF size;  // as wide as the columns need, at least options.width
};
HeadViewPictureLayout headViewPictureLayout(const mhaviz::ForwardResult& result,
                                            const ViewOptions& view, const HeadViewChoice& choice,
                                            const ExportOptions& options,
                                            const mhaviz::ResultMeasures* measures = nullptr,
                                            bool pictures = false);

/// The head view of `result` as `view` and `choice` say, as a picture `options.width` wide (or
/// wider, when its columns need more) and as tall as its rows (at most options.height unless
/// they need more): the title (options.title; empty: describeConfig + caption) wrapped above.
/// Its width and height are the file's. Throws InvalidInput as headViewData does. `pictures`:
/// the image whose patches the tokens are (null: none), drawn beside their labels.
PictureSource headViewPicture(const mhaviz::ForwardResult& result, const ViewOptions& view,
                              const HeadViewChoice& choice, const ExportOptions& options,
                              const mhaviz::ResultMeasures* measures = nullptr,
                              const mhaviz::model::PatchPictures* pictures = nullptr);

/// Empty when options' size is one a head view can be exported at, else the message.
QString checkHeadViewSize(const ExportOptions& options);

/// Writes the head view of `result` as `view` and `choice` say to PNG/SVG/PDF (by the
/// extension of `path`); options.title above it (empty: describeConfig + caption). Returns an
/// empty string on success, else a user-readable error (never throws). `measures`: the
/// result's, for the value norms stage (null: none); `pictures` as headViewPicture's.
QString exportHeadView(const mhaviz::ForwardResult& result, const ViewOptions& view,
                       const HeadViewChoice& choice, const ExportOptions& options,
                       const QString& path, const mhaviz::ResultMeasures* measures = nullptr,
                       const mhaviz::model::PatchPictures* pictures = nullptr);

}  // namespace mhaviz::ui
