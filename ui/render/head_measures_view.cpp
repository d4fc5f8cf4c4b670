#include "render/head_measures_view.hpp"

#include <QEvent>
#include <QFontMetrics>
#include <QPaintEvent>
#include <QPainter>
#include <algorithm>
#include <cmath>
#include <utility>

#include "mhaviz/core/analysis/measures.hpp"

namespace mhaviz::ui {
namespace {
constexpr int kMargin = 8;    // px around everything
constexpr int kBarArea = 46;  // px of bar height at value 1 (or the largest)
constexpr int kMaxBar = 28;   // px widest bar
constexpr int kSectionGap = 10;

QString valueText(double v) {
  if (std::isnan(v)) return QStringLiteral("–");
  return QString::number(v, 'f', v < 10 ? 2 : 1);
}
}  // namespace

HeadMeasuresView::HeadMeasuresView(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("headMeasuresView"));
  rebuild();
}

void HeadMeasuresView::setResult(std::shared_ptr<const mhaviz::ForwardResult> result,
                                 std::shared_ptr<const mhaviz::ResultMeasures> measures, int batch,
                                 bool measuring) {
  m_session = {std::move(result), std::move(measures), batch, measuring};
  if (m_storedShown) return;  // a stored layer is shown; the session's comes back after it
  m_result = m_session.result;
  m_resultMeasures = m_session.measures;
  m_batch = batch;
  m_measuring = measuring;
  rebuild();
}

void HeadMeasuresView::showStored(std::shared_ptr<const mhaviz::ForwardResult> result,
                                  std::shared_ptr<const mhaviz::ResultMeasures> measures,
                                  int batch) {
  m_storedShown = result != nullptr;
  if (m_storedShown) {
    m_result = std::move(result);
    m_resultMeasures = std::move(measures);
    m_batch = batch;
    m_measuring = m_resultMeasures == nullptr;
  } else {
    m_result = m_session.result;
    m_resultMeasures = m_session.measures;
    m_batch = m_session.batch;
    m_measuring = m_session.measuring;
  }
  rebuild();
}

void HeadMeasuresView::changeEvent(QEvent* event) {
  if (event->type() == QEvent::FontChange) m_layouts.clear();
  if (event->type() == QEvent::LanguageChange) rebuild();
  QWidget::changeEvent(event);
}

void HeadMeasuresView::rebuild() {
  m_layouts.clear();
  m_sections.clear();
  m_message.clear();
  m_heading.clear();
  if (!m_result) {
    m_message = tr("No result yet.");
  } else if (!m_resultMeasures) {
    // A reduced result (a long context folded into blocks) never has them: recomputing would
    // not help, making the sequences shorter does.
    m_message = m_measuring ? tr("Computing the head measures of this result…")
                : m_result->is_reduced()
                    ? tr("No head measures in the reduced view: they need every weight of "
                         "every query. Make L and S small enough for the maps to fit the "
                         "memory limit to see them.")
                    : tr("This result has no head measures; recompute it (F5).");
  } else if (m_batch < 0 || m_batch >= m_result->N) {
    m_message = tr("Batch element %1 does not exist.").arg(m_batch);
  } else {
    const mhaviz::ResultMeasures& m = *m_resultMeasures;
    m_heading = tr("Batch element %1, mean over its queries").arg(m_batch);
    Section entropy{tr("entropy / log(open keys): 0 = one key, 1 = uniform"), {}, true};
    Section confidence{tr("confidence: the largest weight"), {}, true};
    Section first{tr("sink share: weight on the first key"), {}, true};
    Section extra{m.head.has_bias_k && m.head.has_zero
                      ? tr("sent to nothing: weight on bias_k + zero")
                      : (m.head.has_bias_k ? tr("sent to nothing: weight on bias_k")
                                           : tr("sent to nothing: weight on zero")),
                  {},
                  true};
    Section scale{tr("logit scale ‖W_Qᵀ W_K‖₂ / √hd: large predicts low entropy"), {}, false};
    Section ablation{tr("ablation: ‖Δ output‖ / ‖output‖ without the head"), {}, false};
    for (std::int64_t h = 0; h < m.head.H; ++h) {
      const mhaviz::HeadAverage& a = m.average(m_batch, h);
      entropy.values.push_back(a.normalized_entropy);
      confidence.values.push_back(a.confidence);
      first.values.push_back(a.first_key);
      extra.values.push_back(a.bias_k + a.zero);
      ablation.values.push_back(a.ablation);
      if (static_cast<std::int64_t>(m.logit_scale.size()) == m.head.H) {
        scale.values.push_back(m.logit_scale[static_cast<std::size_t>(h)]);
      }
    }
    m_sections = {entropy, confidence, first};
    if (m.head.has_bias_k || m.head.has_zero) m_sections.push_back(extra);
    // Weights without a pass (a weights-only model's layer) have no outputs to ablate: said,
    // not left blank.
    if (m_result->output.dim() == 0) {
      ablation.title = tr("ablation: not available, a weights-only layer has no outputs (needs "
                          "the layer's values and parameters)");
    }
    m_sections.push_back(ablation);
    if (!scale.values.empty()) m_sections.push_back(scale);
  }
  updateGeometry();
  update();
  emit contentChanged();
}

HeadMeasuresView::Layout HeadMeasuresView::layoutAt(int viewWidth) const {
  for (const auto& [width, layout] : m_layouts) {
    if (width == viewWidth) return layout;
  }
  if (m_layouts.size() >= 4) m_layouts.erase(m_layouts.begin());
  m_layouts.emplace_back(viewWidth, computeLayout(viewWidth));
  return m_layouts.back().second;
}

HeadMeasuresView::Layout HeadMeasuresView::computeLayout(int viewWidth) const {
  Layout out;
  const QFontMetrics fm(font());
  const int line = fm.height();
  const int width = std::max(40, viewWidth - 2 * kMargin);
  // A text wrapped to the width: as tall as its lines, never cut or elided.
  const auto wrapped = [&](const QString& text, int y, bool bold) {
    QFont f = font();
    f.setBold(bold);
    const QFontMetrics m(f);
    const int h = m.boundingRect(QRect(0, 0, width, 100000), Qt::TextWordWrap, text).height();
    out.texts.push_back({text, QRect(kMargin, y, width, std::max(h, line)),
                         int(Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap), bold});
    return y + std::max(h, line);
  };
  int y = kMargin;
  if (!m_message.isEmpty()) {
    y = wrapped(m_message, y, false);
    out.height = y + kMargin;
    out.firstSection = out.height;
    return out;
  }
  y = wrapped(m_heading, y, true) + 6;
  for (std::size_t si = 0; si < m_sections.size(); ++si) {
    const Section& s = m_sections[si];
    y = wrapped(s.title, y, false) + 4;
    const auto heads = static_cast<int>(s.values.size());
    if (heads > 0) {
      double top = 1.0;
      if (!s.unitRange) {
        top = 0.0;
        for (double v : s.values) top = std::isfinite(v) ? std::max(top, v) : top;
        if (top <= 0.0) top = 1.0;
      }
      const int slot = std::max(4, width / heads);
      const int barWidth = std::min(kMaxBar, std::max(2, slot - 6));
      const bool values = slot >= fm.horizontalAdvance(QStringLiteral("0.00")) + 2;
      // Head indices: every k-th where a slot is narrower than the widest index.
      const int indexWidth = fm.horizontalAdvance(QString::number(heads - 1)) + 2;
      const int every = std::max(1, (indexWidth + slot - 1) / slot);
      const int base = y + line + kBarArea;  // the bars' baseline
      out.baselines.push_back(base);
      for (int h = 0; h < heads; ++h) {
        const double v = s.values[static_cast<std::size_t>(h)];
        const int x = kMargin + h * slot + (slot - barWidth) / 2;
        const double frac = std::isfinite(v) ? std::clamp(v / top, 0.0, 1.0) : 0.0;
        const int hgt = static_cast<int>(std::lround(frac * kBarArea));
        out.bars.emplace_back(QRect(x, base - hgt, barWidth, hgt), int(si));
        if (values) {
          out.texts.push_back({valueText(v), QRect(kMargin + h * slot, base - hgt - line, slot, line),
                               int(Qt::AlignHCenter | Qt::AlignBottom), false});
        }
        if (h % every == 0) {
          const int w = std::max(slot, indexWidth);
          out.texts.push_back({QString::number(h),
                               QRect(kMargin + h * slot + slot / 2 - w / 2, base + 1, w, line),
                               int(Qt::AlignHCenter | Qt::AlignTop), false, true});
        }
      }
      y = base + line + kSectionGap;
    }
    if (si == 0) out.firstSection = y;
  }
  y = wrapped(tr("numbers under the bars: head index"), y, false);
  out.texts.back().dim = true;
  out.height = std::max(y + kMargin, 120);
  if (out.firstSection == 0) out.firstSection = out.height;
  return out;
}

// As tall as every section at the view's width (heightForWidth), so that a scroll area around
// it scrolls instead of clipping; never narrower than kMinimumWidth (a scroll area holds it).
QSize HeadMeasuresView::minimumSizeHint() const {
  return {kMinimumWidth, heightForWidth(std::max(width(), kMinimumWidth))};
}

QSize HeadMeasuresView::sizeHint() const {
  // Before the first result: as tall as the usual six sections, so the dock is laid out for them.
  const QFontMetrics fm(font());
  const int line = fm.height();
  const int section = line + 4 + line + kBarArea + line + kSectionGap;
  const int count = m_sections.empty() ? 6 : static_cast<int>(m_sections.size());
  return {280, std::max(kMargin * 2 + line + 6 + count * section + line,
                        heightForWidth(std::max(width(), 280)))};
}

void HeadMeasuresView::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  updateGeometry();  // its height follows its width (titles wrap)
}

void HeadMeasuresView::paintEvent(QPaintEvent* /*event*/) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing, false);
  const QPalette& pal = palette();
  const QColor text = pal.color(QPalette::WindowText);
  const QColor dim = pal.color(QPalette::PlaceholderText);
  const QColor bar = pal.color(QPalette::Highlight);
  const Layout layout = layoutAt(width());
  for (const auto& [rect, section] : layout.bars) p.fillRect(rect, bar);
  p.setPen(dim);
  if (!m_sections.empty()) {
    std::size_t si = 0;
    for (const int base : layout.baselines) {
      while (si < m_sections.size() && m_sections[si].values.empty()) ++si;
      if (si >= m_sections.size()) break;
      const int slot = std::max(4, (width() - 2 * kMargin) / int(m_sections[si].values.size()));
      p.drawLine(kMargin, base, kMargin + int(m_sections[si].values.size()) * slot, base);
      ++si;
    }
  }
  for (const TextBox& t : layout.texts) {
    QFont f = font();
    f.setBold(t.bold);
    p.setFont(f);
    p.setPen(t.dim ? dim : text);
    p.drawText(t.rect, t.flags, t.text);
  }
}

}  // namespace mhaviz::ui
