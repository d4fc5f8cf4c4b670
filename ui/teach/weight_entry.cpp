#include "teach/weight_entry.hpp"

#include <QCoreApplication>
#include <cmath>

#include "mhaviz/core/base/errors.hpp"
#include "stages/param_stage.hpp"

namespace mhaviz::ui {
namespace {

QString tr(const char* text) { return QCoreApplication::translate("mhaviz::ui", text); }

QString num(double x) {
  if (std::isnan(x)) return QStringLiteral("NaN");
  return QString::number(x, 'g', 8);
}

[[noreturn]] void outOfRange(int map, int row, int col) {
  throw mhaviz::InvalidInput(
      tr("no weight entry at map %1, row %2, column %3").arg(map).arg(row).arg(col).toStdString());
}

}  // namespace

WeightEntry weightEntry(const mhaviz::ForwardResult& r, const ViewOptions& view, int map, int row,
                        int col) {
  if (!isParamStage(view.stage)) {
    throw mhaviz::InvalidInput(tr("not a weight-matrix stage").toStdString());
  }
  const mhaviz::Params& p = r.params;
  WeightEntry e;
  e.hd = r.hd;
  e.outFeature = row;
  e.inFeature = col;
  const mhaviz::Tensor* w = nullptr;
  const mhaviz::Tensor* bias = nullptr;
  std::int64_t biasIndex = 0;
  if (view.stage == Stage::out_proj_weight) {
    if (map != 0 || !p.out_proj_weight) outOfRange(map, row, col);
    w = &*p.out_proj_weight;
    e.matrix = e.tensor = QStringLiteral("out_proj.weight");
    e.projected = u'o';
    e.tensorRow = row;
    if (p.out_proj_bias) bias = &*p.out_proj_bias;
    biasIndex = row;
  } else {
    const bool solo = view.soloHead >= 0 && view.soloHead < r.H;
    const std::int64_t b = solo ? map : map / r.H;
    e.head = solo ? view.soloHead : map % r.H;
    if (b < 0 || b > 2) outOfRange(map, row, col);
    static const char* const kPacked[3] = {"W_q", "W_k", "W_v"};
    static const char* const kSeparate[3] = {"q_proj_weight", "k_proj_weight", "v_proj_weight"};
    e.projected = QChar::fromLatin1("qkv"[b]);
    e.outFeature = e.head * r.hd + row;
    if (p.in_proj_weight) {
      w = &*p.in_proj_weight;
      e.matrix = QLatin1String(kPacked[b]);
      e.tensor = QStringLiteral("in_proj_weight");
      e.tensorRow = b * r.E + e.outFeature;
    } else {
      const std::optional<mhaviz::Tensor>* separate[3] = {&p.q_proj_weight, &p.k_proj_weight,
                                                          &p.v_proj_weight};
      if (!*separate[b]) outOfRange(map, row, col);
      w = &**separate[b];
      e.matrix = e.tensor = QLatin1String(kSeparate[b]);
      e.tensorRow = e.outFeature;
    }
    if (p.in_proj_bias) bias = &*p.in_proj_bias;
    biasIndex = b * r.E + e.outFeature;
  }
  const std::int64_t cols = w->shape().at(1);
  if (row < 0 || col < 0 || col >= cols || row >= (e.head < 0 ? r.E : r.hd) ||
      e.tensorRow >= w->shape().at(0)) {
    outOfRange(map, row, col);
  }
  e.value = w->value(e.tensorRow * cols + col);
  if (bias != nullptr) e.bias = bias->value(biasIndex);
  return e;
}

QString weightEntryHtml(const WeightEntry& e) {
  QString html;
  if (e.head >= 0) {
    html += tr("<h3>%1, head %2: output feature %3, input feature %4</h3>")
                .arg(e.matrix)
                .arg(e.head)
                .arg(e.outFeature)
                .arg(e.inFeature);
  } else {
    html += tr("<h3>%1: output feature %2, input feature %3</h3>")
                .arg(e.matrix)
                .arg(e.outFeature)
                .arg(e.inFeature);
  }
  html += tr("<p>Entry %1[%2, %3] = <b>%4</b>.</p>")
              .arg(e.tensor)
              .arg(e.tensorRow)
              .arg(e.inFeature)
              .arg(num(e.value));
  const QString input = e.projected == u'q'   ? QStringLiteral("query")
                        : e.projected == u'k' ? QStringLiteral("key")
                        : e.projected == u'v' ? QStringLiteral("value")
                                              : tr("the heads concatenated");
  if (e.head >= 0) {
    html += tr("<p>A row is an <b>output feature</b>: this row makes feature %1 of %2 (head "
               "%3's dimension %4, since each head takes hd = %5 rows). A column is an <b>input "
               "feature</b>: this column reads feature %6 of the %7 input.</p>")
                .arg(e.outFeature)
                .arg(e.projected)
                .arg(e.head)
                .arg(e.outFeature - e.head * e.hd)
                .arg(e.hd)
                .arg(e.inFeature)
                .arg(input);
  } else {
    html += tr("<p>A row is an <b>output feature</b>: this row makes feature %1 of attn_output. "
               "A column is an <b>input feature</b>: this column reads feature %2 of %3, which "
               "is head %4's dimension %5.</p>")
                .arg(e.outFeature)
                .arg(e.inFeature)
                .arg(input)
                .arg(e.inFeature / e.hd)
                .arg(e.inFeature % e.hd);
  }
  const QString out = e.head >= 0 ? QString(e.projected) : QStringLiteral("attn_output");
  const QString in = e.head >= 0 ? input : QStringLiteral("merged");
  html += tr("<p>%1[., %2] = &Sigma;<sub>c</sub> %3[%4, c] &middot; %5[., c]%6: this entry is how "
             "much input feature %7 adds to output feature %2, per unit.</p>")
              .arg(out)
              .arg(e.outFeature)
              .arg(e.tensor)
              .arg(e.tensorRow)
              .arg(in)
              .arg(e.bias ? tr(" + bias %1").arg(num(*e.bias)) : QString())
              .arg(e.inFeature);
  return html;
}

}  // namespace mhaviz::ui
