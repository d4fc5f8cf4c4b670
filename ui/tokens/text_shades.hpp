#pragma once
// The text view's picture as numbers, without widgets or painting: the key tokens as running
// text (wrapping at the width), each shaded by the weight one query gives it (in one head, or
// the heads' average), the bias_k / zero keys as chips of their own at the end ("bias_k 0.31").
// Self-attention (L = S and the same labels) is one text, where the token hovered is the query;
// otherwise (cross-attention) the query tokens stand above as their own text and the key
// tokens below. Pure and deterministic, any thread; TextView (text_view.hpp) and the text
// view's export paint it.

#include <QFont>
#include <QRectF>
#include <QString>
#include <QStringList>
#include <limits>
#include <vector>

#include "mhaviz/core/forward/result.hpp"
#include "stages/stage_data.hpp"

namespace mhaviz::ui {

/// One token of the running text: its label and where it stands, and (keys) the value the
/// query gives it and its shade.
struct TextToken {
  QString label;
  QString text;  // what its chip says: the label, and a bias_k / zero chip's weight
  mhaviz::KeyKind kind = mhaviz::KeyKind::source;
  QRectF box;                                                // the token's chip (text drawn inside)
  QRectF picture;  // where its picture stands in the chip, before the text; empty: none
  double weight = std::numeric_limits<double>::quiet_NaN();  // NaN: no query shown
  double shade = 0;     // 0..1: weight / the largest weight of the query's row
  bool masked = false;  // a masked key (weight exactly 0, no shade)
};

struct TextShadeOptions {
  int map = 0;           // which map of the StageData shades the keys (a head, the average)
  int query = -1;        // the query whose weights shade the keys; -1: none
  bool oneText = true;   // self-attention: the keys are the queries' tokens, one text
  double width = 600;    // the text wraps here
  double top = 0;        // space above the first line
  QFont font;            // the tokens' font (its metrics size the chips)
  QString queryHeading;  // heading above the queries (two texts), translated by the caller
  QString keyHeading;    // heading above the keys (two texts)
  /// Per token (query row i and source key column j are token i and j): true where a picture
  /// stands in its chip before the text (a patch of an image, token_pictures.hpp), as tall as
  /// the chip allows.
  std::vector<bool> pictures;
};

struct TextShades {
  std::vector<TextToken> queries;   // two texts only (empty for one text)
  std::vector<TextToken> keys;      // the source keys, then the bias_k / zero chips
  int firstExtraKey = -1;           // index in keys of the first bias_k / zero chip, -1: none
  int query = -1;                   // the query shown (its token outlined), -1: none
  bool nan = false;                 // its row is NaN (every key masked)
  double largest = 0;               // the row's largest finite value (shade 1)
  QRectF queryHeading, keyHeading;  // two texts: where the headings stand
  QString queryHeadingText, keyHeadingText;
  double height = 0;  // the picture's height
};

/// Whether `data` is self-attention for the text view: as many queries as source keys with
/// the same labels (`queryLabels` against the keys' column labels; empty = positions).
bool oneTextFor(const StageData& data, const QStringList& queryLabels);

/// Lays out the text view of options.map of `data` (a query x key stage: weights, weights
/// before dropout or value norms) for options.query, wrapping at options.width. A key's shade
/// is its value over the largest finite value of the row (masked keys and values <= 0: 0).
TextShades layoutTextShades(const StageData& data, const QStringList& queryLabels,
                            const TextShadeOptions& options);

/// What a point of the picture is over: a query token (two texts), a key token (the source
/// keys of one text are the queries too) or nothing.
struct TextHit {
  enum class Side { none, query, key } side = Side::none;
  int index = -1;
  bool operator==(const TextHit&) const = default;
};
TextHit hitText(const TextShades& shades, QPointF point);

/// The query a hit chooses: a query token, or in one text a source key token; -1 otherwise.
int queryOfHit(const TextShades& shades, TextHit hit);

}  // namespace mhaviz::ui
