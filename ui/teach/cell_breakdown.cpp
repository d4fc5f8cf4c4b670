#include "teach/cell_breakdown.hpp"

#include <QCoreApplication>
#include <QStringList>
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/forward/derived_maps.hpp"
#include "mhaviz/core/spec/soft_cap.hpp"

namespace mhaviz::ui {
namespace {

QString tr(const char* text) { return QCoreApplication::translate("mhaviz::ui", text); }

QString num(double x) {
  if (std::isnan(x)) return QStringLiteral("NaN");
  if (std::isinf(x)) return x < 0 ? QStringLiteral("-inf") : QStringLiteral("inf");
  return QString::number(x, 'g', 8);
}

// "value" when the recomputation agrees with the stored value, else both, flagged.
QString checked(double recomputed, double stored, double tol) {
  if (agrees(recomputed, stored, tol)) return num(stored);
  return tr("%1 (recomputed) vs %2 (stored by the core) <b>differ</b>")
      .arg(num(recomputed), num(stored));
}

QString vectorText(const std::vector<double>& v) {
  QStringList parts;
  for (double x : v) parts << num(x);
  return QStringLiteral("[") + parts.join(QStringLiteral(", ")) + QStringLiteral("]");
}

}  // namespace

bool agrees(double a, double b, double relTol) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  if (std::isinf(a) || std::isinf(b)) return a == b;
  return std::abs(a - b) <= relTol * std::max({std::abs(a), std::abs(b), 1.0});
}

CellBreakdown breakdownCell(const mhaviz::ForwardResult& result, std::int64_t n, std::int64_t h,
                            std::int64_t i, std::int64_t j) {
  if (n < 0 || n >= result.N || h < 0 || h >= result.H || i < 0 || i >= result.L || j < 0 ||
      j >= result.Sx) {
    throw mhaviz::InvalidInput(
        QCoreApplication::translate(
            "mhaviz::ui::StageText",
            "cell (n=%1, h=%2, i=%3, j=%4) is outside the result; click a cell of the current maps")
            .arg(n)
            .arg(h)
            .arg(i)
            .arg(j)
            .toStdString());
  }
  CellBreakdown c;
  c.n = n;
  c.h = h;
  c.i = i;
  c.j = j;
  c.hd = result.hd;
  c.column = static_cast<std::size_t>(j) < result.columns.size()
                 ? result.columns[static_cast<std::size_t>(j)]
                 : mhaviz::KeyColumn{mhaviz::KeyKind::source, j};
  c.tolerance = result.config.dtype == mhaviz::DType::float64 ? 1e-12 : 1e-5;
  const std::int64_t b = n * result.H + h;
  const std::int64_t qBase = (b * result.L + i) * result.hd;
  const std::int64_t kBase = (b * result.Sx + j) * result.hd;
  for (std::int64_t d = 0; d < result.hd; ++d) {
    c.q.push_back(result.q.value(qBase + d));
    c.k.push_back(result.k.value(kBase + d));
    c.dot += c.q.back() * c.k.back();
  }
  c.sqrtHd = std::sqrt(static_cast<double>(result.hd));
  c.rawRecomputed = c.dot / c.sqrtHd;
  const std::int64_t rowBase = (b * result.L + i) * result.Sx;
  // The pass keeps only the weights: the row's raw scores, capped scores, mask and scores are
  // derived here, exactly as the pass computed them (mhaviz/core/forward/derived_maps.hpp).
  using mhaviz::DerivedMap;
  const mhaviz::Tensor raw = mhaviz::derived_rows(result, DerivedMap::raw_scores, n, h, i, 1);
  const mhaviz::Tensor mask = mhaviz::derived_rows(result, DerivedMap::mask, n, h, i, 1);
  const mhaviz::Tensor scores = mhaviz::derived_rows(result, DerivedMap::scores, n, h, i, 1);
  c.rawStored = raw.value(j);
  c.capped = result.config.attn_logit_softcapping.has_value();
  double beforeMask = c.rawStored;
  if (c.capped) {
    c.cap = *result.config.attn_logit_softcapping;
    c.cappedRecomputed = mhaviz::soft_capped(c.rawStored, c.cap);
    c.cappedStored = mhaviz::derived_value(result, DerivedMap::capped_scores, n, h, i, j);
    beforeMask = c.cappedStored;
  }
  c.maskTerm = mask.value(j);
  c.scoreRecomputed = beforeMask + c.maskTerm;
  c.scoreStored = scores.value(j);
  c.rowMax = -std::numeric_limits<double>::infinity();
  for (std::int64_t jj = 0; jj < result.Sx; ++jj) {
    c.rowMax = std::max(c.rowMax, scores.value(jj));
  }
  c.rowFullyMasked = std::isinf(c.rowMax) && c.rowMax < 0;
  if (c.rowFullyMasked) {
    // softmax of a row of -inf: exp(-inf - (-inf)) = exp(NaN); PyTorch returns NaN everywhere.
    c.expTerm = std::numeric_limits<double>::quiet_NaN();
    c.rowSum = std::numeric_limits<double>::quiet_NaN();
  } else {
    c.expTerm = std::exp(c.scoreStored - c.rowMax);
    for (std::int64_t jj = 0; jj < result.Sx; ++jj) {
      c.rowSum += std::exp(scores.value(jj) - c.rowMax);
    }
  }
  c.weightRecomputed = c.expTerm / c.rowSum;
  c.dropout = result.weights_before_dropout.has_value();
  c.weightStored = c.dropout ? result.weights_before_dropout->value(rowBase + j)
                             : result.weights.value(rowBase + j);
  if (c.dropout) c.weightDropped = result.weights.value(rowBase + j);
  return c;
}

QString breakdownHtml(const CellBreakdown& c) {
  QString html;
  html += tr("<h3>Batch %1, head %2, query %3, key %4</h3>").arg(c.n).arg(c.h).arg(c.i).arg(c.j);
  switch (c.column.kind) {
    case mhaviz::KeyKind::bias_k:
      html +=
          tr("<p><b>bias_k</b>: a learned key appended at the end, after the in-projection, "
             "by add_bias_kv; never masked. It has no query row of its own (it never attends): "
             "a learned \"null\" key, an attention sink for weight that fits no source "
             "key.</p>");
      break;
    case mhaviz::KeyKind::zero:
      html +=
          tr("<p><b>zero key</b>: the all-zero key appended after the head split by "
             "add_zero_attn; never masked. Its raw score is exactly 0 (q . 0 = 0).</p>");
      break;
    case mhaviz::KeyKind::source:
      html += tr("<p>Key column %1 is source position %2.</p>").arg(c.j).arg(c.column.index);
      break;
  }
  html += QStringLiteral("<table cellspacing='4'>");
  auto row = [&html](const QString& name, const QString& value) {
    html += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>").arg(name, value);
  };
  row(tr("q_i . k_j"), num(c.dot));
  row(tr("/ sqrt(hd) = / %1").arg(num(c.sqrtHd)),
      checked(c.rawRecomputed, c.rawStored, c.tolerance));
  if (c.capped) {
    row(tr("soft-cap: %1 * tanh(raw / %1)").arg(num(c.cap)),
        checked(c.cappedRecomputed, c.cappedStored, c.tolerance));
  }
  row(tr("+ mask term"), num(c.maskTerm));
  row(tr("= score"), checked(c.scoreRecomputed, c.scoreStored, c.tolerance));
  row(tr("row max"), num(c.rowMax));
  row(tr("exp(score - max)"), num(c.expTerm));
  row(tr("row sum of exp"), num(c.rowSum));
  row(tr("softmax = exp / sum"), checked(c.weightRecomputed, c.weightStored, c.tolerance));
  if (c.dropout) row(tr("after dropout"), num(c.weightDropped));
  html += QStringLiteral("</table>");
  if (c.maskTerm < 0 && std::isinf(c.maskTerm)) {
    html += tr("<p>This key is masked for this query: -inf is added, so exp gives 0.</p>");
  }
  if (c.capped) {
    html += tr("<p><b>Soft-cap</b> (attn_logit_softcapping, as in Gemma 2): the scaled raw "
               "score is squashed smoothly into (-%1, %1) before the mask is added, so no key "
               "can dominate by an extreme score.</p>")
                .arg(num(c.cap));
  }
  if (c.rowFullyMasked) {
    html +=
        tr("<p><b>NaN</b>: every key of this query row is masked (-inf), so the row max is "
           "-inf and softmax computes 0/0 = NaN, as PyTorch does. add_zero_attn or "
           "add_bias_kv prevent it: their key is never masked.</p>");
  }
  // The arithmetic first; the head_dim numbers of each vector after it.
  html += tr("<p><b>The vectors</b> whose dot product is q_i . k_j:</p>");
  html += QStringLiteral("<table cellspacing='4'>");
  row(tr("q_i (%1 numbers)").arg(c.hd), vectorText(c.q));
  row(tr("k_j (%1 numbers)").arg(c.hd), vectorText(c.k));
  html += QStringLiteral("</table>");
  return html;
}

QString averageHtml(const mhaviz::ForwardResult& result, std::int64_t n, std::int64_t i,
                    std::int64_t j, bool beforeDropout) {
  const mhaviz::Tensor& w = beforeDropout && result.weights_before_dropout
                                ? *result.weights_before_dropout
                                : result.weights;
  QString html = tr("<h3>Average over heads: batch %1, query %2, key %3</h3>").arg(n).arg(i).arg(j);
  html += QStringLiteral("<table cellspacing='4'>");
  double sum = 0;
  for (std::int64_t h = 0; h < result.H; ++h) {
    const double x = w.value(((n * result.H + h) * result.L + i) * result.Sx + j);
    sum += x;
    html += QStringLiteral("<tr><td>%1</td><td>%2</td></tr>").arg(tr("head %1").arg(h), num(x));
  }
  html += QStringLiteral("<tr><td><b>%1</b></td><td><b>%2</b></td></tr></table>")
              .arg(tr("mean (average_attn_weights)"), num(sum / static_cast<double>(result.H)));
  return html;
}

}  // namespace mhaviz::ui
