#pragma once
// The head view's picture as numbers, without widgets or painting: which tokens stand in the
// two columns and where, which query -> key lines are drawn with which opacity, which weights
// are written beside the tokens on hover, and how many lines the coverage threshold hid. Pure
// and deterministic, any thread; HeadView (head_view.hpp) and the head view's export paint it.
//
// Three steps, so that a hover does not read the weights again: the geometry (the tokens'
// places, O(L + S')), the selection (every weight of the heads shown is read once; the
// coverage threshold per query and head) and the pick (the hovered token's lines and notes,
// from the selection).

#include <QPointF>
#include <QRectF>
#include <QSizeF>
#include <QString>
#include <QStringList>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "mhaviz/core/base/pages.hpp"
#include "mhaviz/core/forward/result.hpp"
#include "stages/stage_data.hpp"

namespace mhaviz::ui {

/// Longest query or key column the head view draws (L and S each; the bias_k / zero keys come on
/// top of S); above it the grid shows the weights.
inline constexpr int kHeadViewMaxTokens = 512;

/// Above this many lines in a picture its faint lines, of opacity below kFaintLine, form a haze
/// (where hundreds cross one pixel): the selection leaves them in the order read (query, head,
/// key) before the others, the picture draws them one device pixel wide, those of one query ->
/// key pair (a line per head) as one line.
inline constexpr std::size_t kManyLines = 20000;
inline constexpr double kFaintLine = 0.25;

/// One token of a column: its label, what kind of key it is (keys only), whether its row of
/// weights is NaN (queries only: every key masked), and where it stands.
struct TokenSlot {
  QString label;
  mhaviz::KeyKind kind = mhaviz::KeyKind::source;
  bool nan = false;
  QRectF box;      // the label's cell (text drawn inside, queries right-aligned)
  QPointF anchor;  // where its lines start (queries) or end (keys)
  // Where the token's picture stands (a patch of an image: token_pictures.hpp), inside `box` at
  // the side of the lines, the text beside it; empty when the view draws no pictures.
  QRectF picture;
};

/// A drawn line from query `query` to key `key` of head `head` (the result's head index);
/// `slot` is the head's place among the heads drawn (its colour).
struct HeadLine {
  int head = 0, slot = 0, query = 0, key = 0;
  double weight = 0;  // the map's value (α_ij, or the value-weighted norm)
  double alpha = 0;   // opacity 0..1: the weight itself for weights, weight / largest for norms
};

/// A weight written beside a token while another is hovered: at key `row` for a hovered
/// query, at query `row` for a hovered key.
struct WeightNote {
  int head = 0, slot = 0, row = 0;
  double weight = 0;
};

struct HeadLinesOptions {
  /// The heads drawn (indices into StageData::maps, which hold one map per head), in colour
  /// order.
  std::vector<int> heads;
  double coverage = 1.0;    // per query and head, the strongest lines carrying this share (0, 1]
  int hoverQuery = -1;      // >= 0: only this query's lines, weights written at the keys
  int hoverKey = -1;        // >= 0 (and no hovered query): only the lines into this key
  bool unitWeights = true;  // values are weights in 0..1 (else opacity = value / largest)
  QSizeF size{800, 600};    // the picture
  double labelWidth = 100;  // each column of token labels
  double noteWidth = 40;    // each column of weights written on hover (outside the labels)
  double pictureWidth = 0;  // room for a token's picture in its label's cell (0: no pictures)
  double top = 8;           // space above the first row (a caption)
  double maxRowHeight = 24;
  double minRowHeight = 12;  // below this the picture grows taller than `size` (it scrolls)
  bool operator==(const HeadLinesOptions&) const = default;
};

/// Lines in pages of their own: a list of millions is mapped in huge pages (pages.hpp).
using HeadLineVector = mhaviz::PageVector<HeadLine>;

/// Lines shared, never copied, between the selection and the pictures picked from it (millions
/// at 512 tokens x 8 heads); read like a vector.
class HeadLineList {
 public:
  HeadLineList() = default;
  explicit HeadLineList(HeadLineVector lines)
      : m_lines(std::make_shared<const HeadLineVector>(std::move(lines))) {}
  [[nodiscard]] std::size_t size() const { return m_lines ? m_lines->size() : 0; }
  [[nodiscard]] bool empty() const { return size() == 0; }
  [[nodiscard]] const HeadLine& operator[](std::size_t i) const { return (*m_lines)[i]; }
  [[nodiscard]] const HeadLine& back() const { return m_lines->back(); }
  [[nodiscard]] const HeadLine* begin() const { return m_lines ? m_lines->data() : nullptr; }
  [[nodiscard]] const HeadLine* end() const { return begin() + size(); }

 private:
  std::shared_ptr<const HeadLineVector> m_lines;
};

struct HeadLines {
  std::vector<TokenSlot> queries, keys;
  int firstExtraKey = -1;  // index of the first bias_k / zero key, -1 without
  double separatorY = 0;   // y of the line that sets the extra keys apart
  double rowHeight = 0;
  double height = 0;  // the picture's height (more than size.height() when it scrolls)
  double queryNoteX = 0, keyNoteX = 0;  // left edge of each notes column
  double noteWidth = 0;                 // width of each notes column
  int headCount = 0;                    // heads drawn (a column of notes each)
  HeadLineList lines;                   // drawing order: weakest first, strongest on top
  std::vector<WeightNote> notes;
  int hoveredQuery = -1, hoveredKey = -1;  // the token hovered (highlighted), -1: none
  bool notesAtKeys = true;  // notes beside the keys (a query hovered), else beside the queries
  int hiddenLines = 0;      // lines with a weight above 0 that the coverage threshold left out
};

/// The lines the coverage threshold keeps for every query (no hover yet), and what it left out.
struct LineSelection {
  /// Every query's lines in drawing order: weakest first (by alpha; ties by query, then head in
  /// the order of options.heads, then key), so that the picture of all of them is this list;
  /// of more than kManyLines, the faint ones first by query, head and key, then the others so.
  HeadLineList lines;
  /// Query i's lines are lines[byQuery[k]] for k in [rowStart[i], rowStart[i + 1]), in the order
  /// of `lines`.
  std::vector<std::uint32_t> byQuery;
  std::vector<std::size_t> rowStart;
  std::vector<unsigned char> nanQueries;  // per query: a head drawn has a NaN row there
  std::vector<int> hiddenPerQuery;        // per query: lines the threshold left out
  int hiddenLines = 0;
  bool complete = false;  // false: cancelled on the way
};

/// Lays out the head view of `data` (one map per head of a query x key stage: weights, weights
/// before dropout or value norms) with `queryLabels` (empty or missing entries: positions; the
/// keys' labels come from the maps' columns). Masked pairs and lines of weight 0 are never
/// drawn; a query whose row is NaN is marked and draws nothing. Coverage: per query and head,
/// the fewest strongest lines whose weights reach coverage x the row's sum (ties by key order).
/// The three steps below in one.
HeadLines layoutHeadLines(const StageData& data, const QStringList& queryLabels,
                          const HeadLinesOptions& options);

/// The tokens' places (no lines, no notes, no NaN marks): cheap, for hit tests and scrolling.
HeadLines headLinesGeometry(const StageData& data, const QStringList& queryLabels,
                            const HeadLinesOptions& options);

/// The lines options.coverage keeps of options.heads, reading every weight once. Stops early
/// (complete = false) when `cancelled` becomes true.
LineSelection selectHeadLines(const StageData& data, const HeadLinesOptions& options,
                              const std::atomic<bool>* cancelled = nullptr);

/// Fills `layout` (from headLinesGeometry) with the lines of `selection` that the hover keeps
/// (all without one), weakest first, the notes, the hidden count and the NaN marks.
void pickHeadLines(HeadLines& layout, const LineSelection& selection, const StageData& data,
                   const HeadLinesOptions& options);

/// What a point of the picture is over: a query row, a key row or neither.
struct TokenHit {
  enum class Side { none, query, key } side = Side::none;
  int row = -1;
  bool operator==(const TokenHit&) const = default;
};
TokenHit hitToken(const HeadLines& lines, QPointF point);

/// The largest finite value over `heads` of `data` (the norms' opacity scale), 0 when none.
double largestValue(const StageData& data, const std::vector<int>& heads);

}  // namespace mhaviz::ui
