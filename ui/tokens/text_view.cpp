// The text view widget (text_view.hpp): head choice, caption and the painted text.
#include "tokens/text_view.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QScrollArea>
#include <algorithm>
#include <cmath>

namespace mhaviz::ui {

namespace {

constexpr double kMargin = 8;

}  // namespace

TextView::TextView(QWidget* parent)
    : TokenView(QStringLiteral("textView"), tr("Save the text view as shown to PNG, SVG or PDF"),
                parent),
      m_heads(new QComboBox),
      m_caption(new QLabel) {
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
  controls->addWidget(exportButton());
  addControls(controls);
  m_caption->setObjectName(QStringLiteral("textViewCaption"));
  m_caption->setWordWrap(true);
  addControls(m_caption);
  addCanvas();
  scroll()->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);

  connect(m_heads, &QComboBox::activated, this,
          [this](int index) { setHead(m_heads->itemData(index).toInt()); });
  updateControls();
}

TextView::~TextView() = default;

TextViewChoice TextView::choice() const {
  return {m_head, m_hoverQuery >= 0 ? m_hoverQuery : m_pinned};
}

QString TextView::caption() const { return m_caption->text(); }

StageData TextView::readData(const mhaviz::ForwardResult& result, const ViewOptions& view,
                             const mhaviz::ResultMeasures* measures) const {
  return textViewData(result, view, measures);
}

void TextView::resultChanged() {
  const int rows = m_data.maps.empty() ? 0 : m_data.maps.front().rows;
  if (m_pinned >= rows) m_pinned = -1;
  if (m_hoverQuery >= rows) m_hoverQuery = -1;
  if (m_head >= static_cast<int>(m_data.maps.size()) - 1) m_head = -1;
  rebuildHeads();
  relayout();
}

void TextView::pointerMoved(QPointF at) { setHover(hitText(m_shades, at)); }

void TextView::pointerClicked(QPointF at) {
  // A click on the pinned query (or beside the tokens) releases it.
  const int query = queryOfHit(m_shades, hitText(m_shades, at));
  setPinnedQuery(query == m_pinned ? -1 : query);
}

void TextView::pointerLeft() { setHover({}); }

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
  canvas()->setToolTip(text);
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

bool TextView::releasePin() {
  if (m_pinned < 0) return false;
  setPinnedQuery(-1);
  return true;
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
    const double width = std::max(120.0, scroll()->viewport()->width() - 2 * kMargin);
    const TextShadeOptions options =
        textShadeOptions(m_data, m_view, choice(), font(), width, kMargin, m_tokenPictures);
    m_map = options.map;
    m_shades = layoutTextShades(m_data, m_view.queryLabels, options);
    const int height = static_cast<int>(std::ceil(m_shades.height + kMargin));
    const int wanted = height > scroll()->viewport()->height() + 1 ? height : 0;
    if (canvas()->minimumHeight() != wanted) canvas()->setMinimumHeight(wanted);
  }
  updateControls();
  canvas()->update();
}

void TextView::updateControls() {
  m_caption->setText(m_result && m_error.isEmpty() && !m_data.maps.empty()
                         ? textViewCaption(*m_result, m_view, m_data, m_map, m_shades,
                                           m_view.queryLabels, m_measures.get())
                         : QString());
  m_caption->setVisible(!m_caption->text().isEmpty());
  showPinAndMessage(m_pinned >= 0 ? pinnedQueryText(m_pinned) : QString());
}

void TextView::paintCanvas(QPainter& painter, const QRectF& exposed) const {
  painter.fillRect(exposed, palette().base());
  if (m_shades.keys.empty()) return;
  TextViewLook look;
  fillLook(look);
  const bool average = m_map >= static_cast<int>(m_data.maps.size()) - 1;
  look.shade = textShadeColor(average ? -1 : m_map);
  // On a dark background the average's grey is light: a stronger weight stands out brighter.
  if (average && look.background.lightnessF() < 0.5) look.shade = QColor(200, 200, 200);
  painter.translate(kMargin, 0);
  paintTextShades(painter, m_shades, look, exposed.translated(-kMargin, 0));
}

QString TextView::checkSize(const ExportOptions& options) const {
  return checkTextViewSize(options);
}

PictureSource TextView::makePicture(const ExportOptions& options) const {
  return textViewPicture(*m_result, m_view, choice(), options, m_measures.get(), m_pictures.get());
}

void TextView::retranslate() {
  rebuildHeads();
  relayout();
}

}  // namespace mhaviz::ui
