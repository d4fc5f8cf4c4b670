// The head view widget (head_view.hpp): chips, coverage slider and the painted canvas.
#include "tokens/head_view.hpp"

#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QScrollArea>
#include <QScrollBar>
#include <QSlider>
#include <QToolButton>
#include <algorithm>
#include <cmath>

#include "render/colormaps.hpp"
#include "tokens/flow_layout.hpp"

namespace mhaviz::ui {

namespace {

// The lines drawn are those of the tokens in sight and a quarter screen above and below (so
// that scrolling a few rows needs no new drawing).
constexpr double kBandScreens = 0.25;

}  // namespace

HeadView::HeadView(QWidget* parent)
    : TokenView(QStringLiteral("headView"), tr("Save the head view as shown to PNG, SVG or PDF"),
                parent),
      m_chipRow(new FlowLayout(2)),
      m_coverage(new QSlider(Qt::Horizontal)),
      m_coverageText(new QLabel),
      m_hidden(new QLabel) {
  // Two rows, so that a narrow dock keeps them: the heads and Export…, then the coverage.
  auto* heads = new QHBoxLayout;
  heads->addLayout(m_chipRow, 1);  // as many rows of chips as the width needs
  heads->addWidget(exportButton(), 0, Qt::AlignTop);
  addControls(heads);
  auto* controls = new QHBoxLayout;
  auto* coverageLabel = new QLabel(tr("Coverage"));
  coverageLabel->setToolTip(
      tr("Per query and head, only the strongest lines that together carry at least this share "
         "of its weight"));
  controls->addWidget(coverageLabel);
  m_coverage->setObjectName(QStringLiteral("headViewCoverage"));
  m_coverage->setRange(1, 100);
  m_coverage->setValue(100);
  m_coverage->setMaximumWidth(160);
  m_coverage->setMinimumWidth(40);  // a narrow dock keeps a short slider
  m_coverage->setToolTip(coverageLabel->toolTip());
  controls->addWidget(m_coverage);
  controls->addWidget(m_coverageText);
  m_hidden->setObjectName(QStringLiteral("headViewHidden"));
  controls->addWidget(m_hidden);
  controls->addStretch(1);
  addControls(controls);
  addCanvas();

  connect(m_coverage, &QSlider::valueChanged, this,
          [this](int percent) { setCoverage(percent / 100.0); });
  // Scrolled beyond the lines drawn: draw the lines of the tokens now in sight.
  connect(scroll()->verticalScrollBar(), &QScrollBar::valueChanged, this, [this] {
    if (!m_requestedBand.contains(wantedBand())) requestPicture();
  });
  updateControls();
}

HeadView::~HeadView() = default;

const HeadLines& HeadView::lines() const { return m_shown ? *m_shown : m_geometry; }

bool HeadView::isDrawing() const { return m_select.isBusy() || m_draw.isBusy(); }

QString HeadView::hiddenText() const { return m_hidden->text(); }

StageData HeadView::readData(const mhaviz::ForwardResult& result, const ViewOptions& view,
                             const mhaviz::ResultMeasures* measures) const {
  return headViewData(result, view, measures);
}

void HeadView::resultChanged() {
  m_labelsWidth = -1;
  dropSelection();
  retire(m_picked);
  retire(m_pickedAll);
  const int heads = m_result ? static_cast<int>(m_result->H) : 0;
  if (static_cast<int>(m_choice.chosen.size()) != heads || m_chipKvHeads != m_view.kvHeads) {
    m_choice.chosen.assign(static_cast<std::size_t>(heads), true);
    m_chipKvHeads = m_view.kvHeads;
    rebuildChips();
  }
  const auto fits = [this](TokenHit hit) {
    const std::int64_t rows = !m_result                           ? 0
                              : hit.side == TokenHit::Side::query ? m_result->L
                                                                  : m_result->Sx;
    return hit.row < rows ? hit : TokenHit{};
  };
  m_hover = fits(m_hover);
  m_pinned = fits(m_pinned);
  updateShownToken();
  relayout();
}

void HeadView::pointerMoved(QPointF at) { setHover(hitToken(lines(), at)); }

void HeadView::pointerClicked(QPointF at) {
  // A click on the pinned token (or beside the tokens) releases it.
  const TokenHit hit = hitToken(lines(), at);
  setPinned(hit == m_pinned ? TokenHit{} : hit);
}

void HeadView::pointerLeft() { setHover({}); }

void HeadView::rebuildChips() {
  for (QToolButton* chip : m_chips) delete chip;
  m_chips.clear();
  while (QLayoutItem* gap = m_chipRow->takeAt(0)) delete gap;  // the groups' spacing
  const auto heads = static_cast<int>(m_choice.chosen.size());
  // Grouped-query attention: the heads sharing a key/value head side by side, a gap between
  // groups, each underlined in its key/value head's colour.
  const int perGroup =
      m_chipKvHeads > 0 && heads % m_chipKvHeads == 0 ? heads / m_chipKvHeads : 0;
  for (int head = 0; head < heads; ++head) {
    auto* chip = new QToolButton;
    chip->setText(tr("h%1").arg(head));
    chip->setCheckable(true);
    chip->setChecked(m_choice.chosen[std::size_t(head)]);
    QString tip = tr("Draw the lines of head %1 (its colour)").arg(head);
    QString group;
    if (perGroup > 0) {
      const int kv = head / perGroup;
      tip += QLatin1Char('\n') + tr("Shares key/value head %1 with heads %2 to %3")
                                     .arg(kv)
                                     .arg(kv * perGroup)
                                     .arg(kv * perGroup + perGroup - 1);
      group = QStringLiteral("border-bottom: 4px solid %1;").arg(kvGroupColor(kv).name());
      if (head > 0 && head % perGroup == 0) m_chipRow->addGap(8);
    }
    chip->setToolTip(tip);
    const QColor c = headColor(head);
    chip->setStyleSheet(
        QStringLiteral("QToolButton { border: 2px solid %1; border-radius: 4px; padding: 1px 5px; "
                       "%3 }"
                       "QToolButton:checked { background: %1; color: %2; }")
            .arg(c.name(),
                 c.lightnessF() > 0.55 ? QStringLiteral("black") : QStringLiteral("white"),
                 group));
    connect(chip, &QToolButton::toggled, this, [this, head](bool on) { setHeadChosen(head, on); });
    m_chipRow->addWidget(chip);
    m_chips.push_back(chip);
  }
}

void HeadView::setCoverage(double coverage) {
  coverage = std::clamp(coverage, 0.01, 1.0);
  if (coverage == m_choice.coverage) return;
  m_choice.coverage = coverage;
  const int percent = static_cast<int>(std::lround(coverage * 100));
  if (m_coverage->value() != percent) m_coverage->setValue(percent);
  relayout();
}

void HeadView::setHeadChosen(int head, bool chosen) {
  if (head < 0 || head >= static_cast<int>(m_choice.chosen.size())) return;
  if (m_choice.chosen[static_cast<std::size_t>(head)] == chosen) return;
  m_choice.chosen[static_cast<std::size_t>(head)] = chosen;
  QToolButton* chip = m_chips[static_cast<std::size_t>(head)];
  if (chip->isChecked() != chosen) chip->setChecked(chosen);
  relayout();
}

void HeadView::setHover(TokenHit hit) {
  if (hit.side == TokenHit::Side::none) hit = {};
  if (hit == m_hover) return;
  m_hover = hit;
  updateShownToken();
  relayout();
  if (hit.side == TokenHit::Side::none) emit hovered({});  // the rest once its lines are picked
}

void HeadView::setPinned(TokenHit hit) {
  if (hit.side == TokenHit::Side::none) hit = {};
  if (hit == m_pinned) return;
  m_pinned = hit;
  updateShownToken();
  updateControls();
  relayout();
}

void HeadView::updateShownToken() {
  const TokenHit shown = m_hover.side != TokenHit::Side::none ? m_hover : m_pinned;
  m_choice.query = shown.side == TokenHit::Side::query ? shown.row : -1;
  m_choice.key = shown.side == TokenHit::Side::key ? shown.row : -1;
}

bool HeadView::releasePin() {
  if (m_pinned.side == TokenHit::Side::none) return false;
  setPinned({});
  return true;
}

void HeadView::relayout() {
  m_heads = m_result ? headsShown(m_view, static_cast<int>(m_result->H), m_choice.chosen)
                     : std::vector<int>{};
  HeadLinesOptions options;
  if (m_result && m_error.isEmpty() && !m_data.maps.empty()) {
    const QSizeF size(scroll()->viewport()->width(), scroll()->viewport()->height());
    if (m_labelsWidth < 0) m_labelsWidth = headLabelsWidth(m_data, m_view.queryLabels, font());
    options = headLinesOptions(m_labelsWidth, m_heads, m_choice,
                               headViewStage(*m_result, m_view, m_measures.get()), font(), size, 4,
                               !m_tokenPictures.empty());
  }
  // A dock narrower than the columns scrolls sideways rather than crossing them.
  const int narrowest = m_result ? static_cast<int>(std::ceil(options.size.width())) : 0;
  const int wantedWidth = narrowest > scroll()->viewport()->width() ? narrowest : 0;
  if (canvas()->minimumWidth() != wantedWidth) canvas()->setMinimumWidth(wantedWidth);
  // What the kept selection and picked lines were made for.
  const bool sameSelection = options.heads == m_options.heads &&
                             options.coverage == m_options.coverage &&
                             options.unitWeights == m_options.unitWeights;
  HeadLinesOptions unhovered = options;
  HeadLinesOptions before = m_options;
  unhovered.hoverQuery = unhovered.hoverKey = before.hoverQuery = before.hoverKey = -1;
  if (!sameSelection) dropSelection();
  if (!sameSelection || !(unhovered == before)) {
    retire(m_picked);
    retire(m_pickedAll);
  } else if (!(options == m_options)) {
    retire(m_picked);
  }
  m_options = options;
  m_geometry = headLinesGeometry(m_data, m_view.queryLabels, options);
  if (m_data.maps.empty()) retire(m_shown);
  const int height = static_cast<int>(std::ceil(m_geometry.height));
  const int viewport = scroll()->viewport()->height();
  const int wanted = height > viewport + 1 ? height : 0;
  if (canvas()->minimumHeight() != wanted) canvas()->setMinimumHeight(wanted);
  updateControls();
  requestPicture();
  releaseRetired();
}

QRectF HeadView::wantedBand() const {
  const double width = std::max<double>(canvas()->width(), m_options.size.width());
  const double height = std::max<double>(canvas()->height(), m_geometry.height);
  const double screen = scroll()->viewport()->height();
  if (height <= screen * (1 + 2 * kBandScreens)) return {0, 0, width, height};
  const double top = std::max(0.0, scroll()->verticalScrollBar()->value() - screen * kBandScreens);
  const double bottom = std::min(height, top + screen * (1 + 2 * kBandScreens));
  return {0, top, width, bottom - top};
}

void HeadView::dropSelection() {
  retire(m_selection);
  ++m_selectionWanted;
}

void HeadView::requestSelection() {
  if (m_select.isBusy() && m_selectionReading == m_selectionWanted) return;  // on its way
  m_selectionReading = m_selectionWanted;
  // The run's copy of the data keeps the result and measures its maps read alive.
  m_select.start([this, data = m_data, options = m_options,
                  wanted = m_selectionWanted](const TaskScope& scope) {
    auto made =
        std::make_shared<const LineSelection>(selectHeadLines(data, options, scope.cancelFlag()));
    if (!made->complete) return;
    scope.post([this, made, wanted] {
      if (wanted != m_selectionWanted) {  // data or heads changed meanwhile
        m_retired.push_back(made);        // millions of lines: let go off the GUI thread
        releaseRetired();
        return;
      }
      m_selection = made;
      requestPicture();
    });
  });
}

void HeadView::requestPicture() {
  if (m_data.maps.empty() || !m_result) {
    m_select.cancel();
    m_draw.cancel();
    retire(m_shown);
    releaseRetired();
    m_image = {};
    m_requestedBand = {};
    canvas()->update();
    return;
  }
  const QRectF band = wantedBand();
  const TokenHit shownToken = m_hover.side != TokenHit::Side::none ? m_hover : m_pinned;
  const bool all = shownToken.side == TokenHit::Side::none;
  if (all && m_pickedAll) m_picked = m_pickedAll;  // every line, as picked before the hover
  if (m_picked && m_shown == m_picked && m_band.contains(band)) {
    m_requestedBand = m_band;
    canvas()->update();
    return;
  }
  m_requestedBand = band;
  if (!m_selection) {
    m_draw.cancel();     // lines of the selection before are no longer wanted
    requestSelection();  // which asks for the picture again when it arrives
    return;
  }
  const double scale = canvas()->devicePixelRatioF();
  // Everything the run reads is its own copy or shared and immutable (the data's result too).
  m_draw.start([this, data = m_data, options = m_options,
                geometry = m_picked ? HeadLines{} : m_geometry, sel = m_selection,
                picked = m_picked, band, scale, shownToken, all](const TaskScope& scope) {
    const std::atomic<bool>* cancelled = scope.cancelFlag();
    std::shared_ptr<const HeadLines> lines = picked;
    if (!lines) {
      auto made = std::make_shared<HeadLines>(geometry);
      pickHeadLines(*made, *sel, data, options);
      lines = std::move(made);
    }
    if (scope.cancelled()) return;
    QImage image = rasterHeadLines(*lines, band, scale, cancelled);
    if (image.isNull()) return;
    scope.post([this, lines, image = std::move(image), band, shownToken, all] {
      const bool newLines = m_shown != lines;
      m_retired.push_back(std::exchange(m_picked, lines));
      if (all) m_retired.push_back(std::exchange(m_pickedAll, lines));
      m_retired.push_back(std::exchange(m_shown, lines));
      releaseRetired();
      m_image = image;
      m_band = band;
      updateControls();
      canvas()->update();
      if (newLines && shownToken == m_hover && m_hover.side != TokenHit::Side::none) {
        const QString text = headTokenText(m_hover, *lines);
        canvas()->setToolTip(text);
        emit hovered(text);
      }
      emit pictureShown();
    });
  });
}

void HeadView::releaseRetired() {
  std::erase(m_retired, nullptr);
  if (m_retired.empty()) return;
  m_release.start([held = std::exchange(m_retired, {})](const TaskScope&) {});
}

void HeadView::updateControls() {
  const bool solo = m_result && m_view.soloHead >= 0 && m_view.soloHead < m_result->H;
  for (std::size_t h = 0; h < m_chips.size(); ++h) {
    m_chips[h]->setEnabled(!solo);
    if (solo) {
      m_chips[h]->setToolTip(
          tr("The grid shows head %1 alone; the head view follows it").arg(m_view.soloHead));
    }
  }
  m_coverageText->setText(tr("%1 %").arg(m_coverage->value()));
  const int hidden = m_shown ? m_shown->hiddenLines : 0;
  m_hidden->setText(hidden > 0 ? tr("hidden lines: %1").arg(hidden) : QString());
  QString pin;
  if (m_pinned.side == TokenHit::Side::query) {
    pin = pinnedQueryText(m_pinned.row);
  } else if (m_pinned.side == TokenHit::Side::key) {
    pin = tr("Pinned: key %1. Click it again or press Esc to release.").arg(m_pinned.row);
  }
  showPinAndMessage(pin);
}

void HeadView::paintCanvas(QPainter& painter, const QRectF& exposed) const {
  painter.fillRect(exposed, palette().base());
  const HeadLines& shown = lines();
  if (shown.queries.empty()) return;
  if (!m_image.isNull()) painter.drawImage(m_band.topLeft(), m_image);
  HeadViewLook look;
  fillLook(look);
  look.colormap = m_view.colormap;
  paintHeadTokens(painter, shown, look, exposed);
}

QString HeadView::checkSize(const ExportOptions& options) const {
  return checkHeadViewSize(options);
}

PictureSource HeadView::makePicture(const ExportOptions& options) const {
  return headViewPicture(*m_result, m_view, m_choice, options, m_measures.get(), m_pictures.get());
}

void HeadView::retranslate() {
  rebuildChips();
  updateControls();
}

void HeadView::changeEvent(QEvent* event) {
  // The labels measured again in the new font, or with the heading "query" in the new language.
  if (event->type() == QEvent::FontChange || event->type() == QEvent::LanguageChange)
    m_labelsWidth = -1;
  TokenView::changeEvent(event);
}

}  // namespace mhaviz::ui
