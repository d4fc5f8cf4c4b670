// The text view widget (text_view.hpp): head choice, caption and the painted text.
#include "tokens/text_view.hpp"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QPainter>
#include <QScrollArea>
#include <QToolTip>
#include <QToolButton>
#include <QVBoxLayout>
#include <cmath>
#include <exception>

#include "mhaviz/core/base/errors.hpp"
#include "tokens/token_canvas.hpp"

namespace mhaviz::ui {

namespace {

constexpr double kMargin = 8;

}  // namespace

TextView::TextView(QWidget* parent)
    : QWidget(parent),
      m_heads(new QComboBox),
      m_caption(new QLabel),
      m_pinText(new QLabel),
      m_message(new QLabel),
      m_export(new QToolButton),
      m_scroll(new QScrollArea) {
  m_canvas = new TokenCanvas(
      QStringLiteral("textViewCanvas"),
      {[this](QPainter& painter, const QRectF& exposed) { paintCanvas(painter, exposed); },
       [this] { relayout(); }, [this](QPointF at) { setHover(hitText(m_shades, at)); },
       [this](QPointF at) {
         // A click on the pinned query (or beside the tokens) releases it.
         const int query = queryOfHit(m_shades, hitText(m_shades, at));
         setPinnedQuery(query == m_pinned ? -1 : query);
       },
       [this] { setHover({}); }});
  setObjectName(QStringLiteral("textView"));
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  auto* controls = new QHBoxLayout;
  auto* headLabel = new QLabel(tr("&Shade by"));
  headLabel->setBuddy(m_heads);
  m_heads->setObjectName(QStringLiteral("textViewHead"));
  m_heads->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  m_heads->setMinimumContentsLength(16);  // "average over heads"; a narrow dock keeps it
  m_heads->setToolTip(tr("Whose weights shade the keys: one head, or the average over heads"));
  controls->addWidget(headLabel);
  controls->addWidget(m_heads);
  controls->addStretch(1);
  m_export->setText(tr("Export\u2026"));
  m_export->setToolTip(tr("Save the text view as shown to PNG, SVG or PDF"));
  controls->addWidget(m_export);
  layout->addLayout(controls);
  m_caption->setObjectName(QStringLiteral("textViewCaption"));
  m_caption->setWordWrap(true);
  layout->addWidget(m_caption);
  m_pinText->setObjectName(QStringLiteral("textViewPin"));
  m_pinText->setWordWrap(true);
  m_pinText->hide();
  layout->addWidget(m_pinText);
  m_message->setWordWrap(true);
  m_message->hide();
  layout->addWidget(m_message);
  m_scroll->setWidget(m_canvas);
  m_scroll->setWidgetResizable(true);
  m_scroll->setFrameShape(QFrame::NoFrame);
  m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  layout->addWidget(m_scroll, 1);

  connect(m_heads, &QComboBox::activated, this,
          [this](int index) { setHead(m_heads->itemData(index).toInt()); });
  connect(m_export, &QToolButton::clicked, this, &TextView::exportRequested);
  updateControls();
}

TextView::~TextView() = default;

QWidget* TextView::canvas() const { return m_canvas; }

QString TextView::message() const {
  if (!m_error.isEmpty()) return m_error;
  if (!m_result) return tr("No result yet.");
  return {};
}

TextViewChoice TextView::choice() const {
  return {m_head, m_hoverQuery >= 0 ? m_hoverQuery : m_pinned};
}

QString TextView::caption() const { return m_caption->text(); }

void TextView::setResult(std::shared_ptr<const mhaviz::ForwardResult> result,
                         const ViewOptions& view,
                         std::shared_ptr<const mhaviz::ResultMeasures> measures) {
  // A hover tooltip described a token of the result before (a bias_k chip that may be gone).
  if (QToolTip::isVisible() && !m_canvas->toolTip().isEmpty() &&
      QToolTip::text() == m_canvas->toolTip()) {
    QToolTip::hideText();
  }
  m_canvas->setToolTip({});
  m_result = std::move(result);
  m_measures = std::move(measures);
  m_view = view;
  m_data = {};
  m_error.clear();
  if (m_result) {
    try {
      m_data = textViewData(*m_result, view, m_measures.get());
      m_data.measures = m_measures;  // described value norms read them
    } catch (const std::exception& e) {
      m_error = QString::fromUtf8(e.what());
    }
  }
  const int rows = m_data.maps.empty() ? 0 : m_data.maps.front().rows;
  if (m_pinned >= rows) m_pinned = -1;
  if (m_hoverQuery >= rows) m_hoverQuery = -1;
  if (m_head >= static_cast<int>(m_data.maps.size()) - 1) m_head = -1;
  rebuildHeads();
  relayout();
}

void TextView::rebuildHeads() {
  const int heads = std::max(0, static_cast<int>(m_data.maps.size()) - 1);
  m_heads->clear();
  m_heads->addItem(m_data.maps.empty() ? tr("Average over heads") : m_data.maps.back().shownTitle,
                   -1);
  for (int h = 0; h < heads; ++h) m_heads->addItem(tr("Head %1").arg(h), h);
  const bool solo = m_view.soloHead >= 0 && m_view.soloHead < heads;
  m_heads->setCurrentIndex(m_heads->findData(solo ? m_view.soloHead : m_head));
  m_heads->setEnabled(!solo && heads > 0);
  m_heads->setToolTip(
      solo ? tr("The grid shows head %1 alone; the text view follows it").arg(m_view.soloHead)
           : tr("Whose weights shade the keys: one head, or the average over heads"));
}

void TextView::setHead(int head) {
  if (head == m_head) return;
  m_head = head;
  if (const int index = m_heads->findData(head); index >= 0 && m_heads->isEnabled()) {
    m_heads->setCurrentIndex(index);
  }
  relayout();
}

void TextView::setHover(TextHit hit) {
  if (hit == m_hover) return;
  m_hover = hit;
  const int query = queryOfHit(m_shades, hit);
  const QString text = hoverText(hit);
  m_canvas->setToolTip(text);
  emit hovered(text);
  if (query != m_hoverQuery) {
    m_hoverQuery = query;
    relayout();
  }
}

void TextView::setPinnedQuery(int query) {
  const int rows = m_data.maps.empty() ? 0 : m_data.maps.front().rows;
  if (query >= rows) query = -1;
  if (query == m_pinned) return;
  m_pinned = query;
  relayout();
}

void TextView::keyPressEvent(QKeyEvent* event) {
  if (event->key() == Qt::Key_Escape && m_pinned >= 0) {
    setPinnedQuery(-1);
    return;
  }
  QWidget::keyPressEvent(event);
}

QString TextView::hoverText(TextHit hit) const {
  if (hit.side == TextHit::Side::none || hit.index < 0) return {};
  if (hit.side == TextHit::Side::query) {
    if (static_cast<std::size_t>(hit.index) >= m_shades.queries.size()) return {};
    return tr("query %1 \"%2\": its weights shade the keys below")
        .arg(hit.index)
        .arg(m_shades.queries[static_cast<std::size_t>(hit.index)].label);
  }
  if (static_cast<std::size_t>(hit.index) >= m_shades.keys.size()) return {};
  const TextToken& k = m_shades.keys[static_cast<std::size_t>(hit.index)];
  const QString weight = std::isnan(k.weight) ? QString() : QString::number(k.weight, 'g', 4);
  switch (k.kind) {
    case mhaviz::KeyKind::bias_k:
      return tr("key bias_k (appended by add_bias_kv), weight %1: a key only, it has no query "
                "row")
          .arg(weight);
    case mhaviz::KeyKind::zero:
      return tr("key zero (all-zero key appended by add_zero_attn), weight %1: a key only, it "
                "has no query row")
          .arg(weight);
    case mhaviz::KeyKind::source:
      break;
  }
  if (k.masked)
    return tr("key %1 \"%2\": masked for this query (weight 0)").arg(hit.index).arg(k.label);
  if (m_shades.queries.empty()) {
    return tr("token %1 \"%2\": as a key, weight %3 from the query shown; as the query, its "
              "weights shade the text")
        .arg(hit.index)
        .arg(k.label)
        .arg(weight);
  }
  return tr("key %1 \"%2\": weight %3").arg(hit.index).arg(k.label).arg(weight);
}

void TextView::relayout() {
  m_shades = {};
  m_map = -1;
  if (m_result && m_error.isEmpty() && !m_data.maps.empty()) {
    const double width = std::max(120.0, m_scroll->viewport()->width() - 2 * kMargin);
    const TextShadeOptions options =
        textShadeOptions(m_data, m_view, choice(), font(), width, kMargin);
    m_map = options.map;
    m_shades = layoutTextShades(m_data, m_view.queryLabels, options);
    const int height = static_cast<int>(std::ceil(m_shades.height + kMargin));
    const int wanted = height > m_scroll->viewport()->height() + 1 ? height : 0;
    if (m_canvas->minimumHeight() != wanted) m_canvas->setMinimumHeight(wanted);
  }
  updateControls();
  m_canvas->update();
}

void TextView::updateControls() {
  m_caption->setText(m_result && m_error.isEmpty() && !m_data.maps.empty()
                         ? textViewCaption(*m_result, m_view, m_data, m_map, m_shades,
                                           m_view.queryLabels, m_measures.get())
                         : QString());
  m_caption->setVisible(!m_caption->text().isEmpty());
  m_pinText->setText(
      m_pinned >= 0 ? tr("Pinned: query %1. Click it again or press Esc to release.").arg(m_pinned)
                    : QString());
  m_pinText->setVisible(m_pinned >= 0);
  const QString message = this->message();
  m_message->setText(message);
  m_message->setVisible(!message.isEmpty());
  m_export->setEnabled(message.isEmpty());
}

void TextView::paintCanvas(QPainter& painter, const QRectF& exposed) const {
  painter.fillRect(exposed, palette().base());
  if (m_shades.keys.empty()) return;
  TextViewLook look;
  look.background = palette().color(QPalette::Base);
  look.ink = palette().color(QPalette::Text);
  look.faint = palette().color(QPalette::PlaceholderText);
  look.font = font();
  const bool average = m_map >= static_cast<int>(m_data.maps.size()) - 1;
  look.shade = textShadeColor(average ? -1 : m_map);
  // On a dark background the average's grey is light: a stronger weight stands out brighter.
  if (average && look.background.lightnessF() < 0.5) look.shade = QColor(200, 200, 200);
  painter.translate(kMargin, 0);
  paintTextShades(painter, m_shades, look, exposed.translated(-kMargin, 0));
}

QString TextView::exportTo(const QString& path, ExportOptions options) const {
  if (!m_result) return message();
  return exportTextView(*m_result, m_view, choice(), options, path, m_measures.get());
}

PictureSource TextView::picture(const ExportOptions& options) const {
  if (!m_result) throw mhaviz::InvalidInput(message().toStdString());
  return textViewPicture(*m_result, m_view, choice(), options, m_measures.get());
}

void TextView::changeEvent(QEvent* event) {
  if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange) relayout();
  if (event->type() == QEvent::LanguageChange) {
    rebuildHeads();
    relayout();
  }
  QWidget::changeEvent(event);
}

}  // namespace mhaviz::ui
