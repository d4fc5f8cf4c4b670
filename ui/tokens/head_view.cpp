// The head view widget (head_view.hpp): chips, coverage slider and the painted canvas.
#include "tokens/head_view.hpp"

#include <QEvent>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollArea>
#include <QScrollBar>
#include <QSlider>
#include <QToolButton>
#include <QVBoxLayout>
#include <cmath>
#include <exception>

namespace mhaviz::ui {

namespace {

/// Where the head view is painted; hands painting, size and pointer to the HeadView.
class HeadCanvas : public QWidget {
 public:
  explicit HeadCanvas(HeadView* view) : m_view(view) {
    setMouseTracking(true);
    setObjectName(QStringLiteral("headViewCanvas"));
  }

 protected:
  void paintEvent(QPaintEvent*) override {
    QPainter painter(this);
    m_view->paintCanvas(painter);
  }
  void resizeEvent(QResizeEvent*) override { m_view->relayout(); }
  void mouseMoveEvent(QMouseEvent* event) override {
    m_view->setHover(hitToken(m_view->lines(), event->position()));
  }
  void leaveEvent(QEvent*) override { m_view->setHover({}); }

 private:
  HeadView* m_view;
};

}  // namespace

HeadView::HeadView(QWidget* parent)
    : QWidget(parent),
      m_chipRow(new QHBoxLayout),
      m_coverage(new QSlider(Qt::Horizontal)),
      m_coverageText(new QLabel),
      m_hidden(new QLabel),
      m_message(new QLabel),
      m_export(new QToolButton),
      m_scroll(new QScrollArea),
      m_canvas(new HeadCanvas(this)) {
  setObjectName(QStringLiteral("headView"));
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  auto* controls = new QHBoxLayout;
  m_chipRow->setSpacing(2);
  controls->addLayout(m_chipRow);
  controls->addSpacing(12);
  auto* coverageLabel = new QLabel(tr("Coverage"));
  coverageLabel->setToolTip(
      tr("Per query and head, only the strongest lines that together carry at least this share "
         "of its weight"));
  controls->addWidget(coverageLabel);
  m_coverage->setObjectName(QStringLiteral("headViewCoverage"));
  m_coverage->setRange(1, 100);
  m_coverage->setValue(100);
  m_coverage->setMaximumWidth(160);
  m_coverage->setToolTip(coverageLabel->toolTip());
  controls->addWidget(m_coverage);
  controls->addWidget(m_coverageText);
  m_hidden->setObjectName(QStringLiteral("headViewHidden"));
  controls->addWidget(m_hidden);
  controls->addStretch(1);
  m_export->setText(tr("Export\u2026"));
  m_export->setToolTip(tr("Save the head view as shown to PNG, SVG or PDF"));
  controls->addWidget(m_export);
  layout->addLayout(controls);
  m_message->setWordWrap(true);
  m_message->hide();
  layout->addWidget(m_message);
  m_scroll->setWidget(m_canvas);
  m_scroll->setWidgetResizable(true);
  m_scroll->setFrameShape(QFrame::NoFrame);
  m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  layout->addWidget(m_scroll, 1);

  connect(m_coverage, &QSlider::valueChanged, this,
          [this](int percent) { setCoverage(percent / 100.0); });
  connect(m_export, &QToolButton::clicked, this, &HeadView::exportWithDialog);
  updateControls();
}

HeadView::~HeadView() = default;

QWidget* HeadView::canvas() const { return m_canvas; }

QString HeadView::message() const {
  if (!m_error.isEmpty()) return m_error;
  if (!m_result) return tr("No result yet.");
  return {};
}

QString HeadView::hiddenText() const { return m_hidden->text(); }

void HeadView::setResult(std::shared_ptr<const mhaviz::ForwardResult> result,
                         const ViewOptions& view) {
  m_result = std::move(result);
  m_view = view;
  m_data = {};
  m_error.clear();
  if (m_result) {
    try {
      m_data = headViewData(*m_result, view);
    } catch (const std::exception& e) {
      m_error = QString::fromUtf8(e.what());
    }
  }
  const int heads = m_result ? static_cast<int>(m_result->H) : 0;
  if (static_cast<int>(m_choice.chosen.size()) != heads) {
    m_choice.chosen.assign(static_cast<std::size_t>(heads), true);
    rebuildChips();
  }
  if (m_choice.query >= (m_result ? m_result->L : 0)) m_choice.query = -1;
  if (m_choice.key >= (m_result ? m_result->Sx : 0)) m_choice.key = -1;
  relayout();
}

void HeadView::rebuildChips() {
  for (QToolButton* chip : m_chips) delete chip;
  m_chips.clear();
  for (std::size_t h = 0; h < m_choice.chosen.size(); ++h) {
    auto* chip = new QToolButton;
    const int head = static_cast<int>(h);
    chip->setText(tr("h%1").arg(head));
    chip->setCheckable(true);
    chip->setChecked(m_choice.chosen[h]);
    chip->setToolTip(tr("Draw the lines of head %1 (its colour)").arg(head));
    const QColor c = headColor(head);
    chip->setStyleSheet(
        QStringLiteral("QToolButton { border: 2px solid %1; border-radius: 4px; padding: 1px 5px; }"
                       "QToolButton:checked { background: %1; color: %2; }")
            .arg(c.name(),
                 c.lightnessF() > 0.55 ? QStringLiteral("black") : QStringLiteral("white")));
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
  const int query = hit.side == TokenHit::Side::query ? hit.row : -1;
  const int key = hit.side == TokenHit::Side::key ? hit.row : -1;
  if (query == m_choice.query && key == m_choice.key) return;
  m_choice.query = query;
  m_choice.key = key;
  relayout();
  const QString text = hoverText(hit);
  m_canvas->setToolTip(text);
  emit hovered(text);
}

QString HeadView::hoverText(TokenHit hit) const {
  if (hit.side == TokenHit::Side::none || hit.row < 0) return {};
  if (hit.side == TokenHit::Side::query) {
    if (static_cast<std::size_t>(hit.row) >= m_lines.queries.size()) return {};
    const TokenSlot& q = m_lines.queries[static_cast<std::size_t>(hit.row)];
    if (q.nan) {
      return tr("query %1 \"%2\": NaN: every key of this query is masked, so softmax divides 0 "
                "by 0 (add_zero_attn or add_bias_kv add a key that is never masked)")
          .arg(hit.row)
          .arg(q.label);
    }
    return tr("query %1 \"%2\": lines drawn: %3")
        .arg(hit.row)
        .arg(q.label)
        .arg(m_lines.lines.size());
  }
  if (static_cast<std::size_t>(hit.row) >= m_lines.keys.size()) return {};
  const TokenSlot& k = m_lines.keys[static_cast<std::size_t>(hit.row)];
  switch (k.kind) {
    case mhaviz::KeyKind::bias_k:
      return tr("key bias_k (appended by add_bias_kv): a key only, it has no query row");
    case mhaviz::KeyKind::zero:
      return tr(
          "key zero (all-zero key appended by add_zero_attn): a key only, it has no query "
          "row");
    case mhaviz::KeyKind::source:
      break;
  }
  return tr("key %1 \"%2\": lines into it: %3").arg(hit.row).arg(k.label).arg(m_lines.lines.size());
}

void HeadView::relayout() {
  m_heads = m_result ? headsShown(m_view, static_cast<int>(m_result->H), m_choice.chosen)
                     : std::vector<int>{};
  m_lines = {};
  if (m_result && m_error.isEmpty() && !m_data.maps.empty()) {
    const QSizeF size(m_scroll->viewport()->width(), m_scroll->viewport()->height());
    const HeadLinesOptions options =
        headLinesOptions(m_data, m_view.queryLabels, m_heads, m_choice,
                         headViewStage(*m_result, m_view), font(), size, 4);
    m_lines = layoutHeadLines(m_data, m_view.queryLabels, options);
    const int height = static_cast<int>(std::ceil(m_lines.height));
    if (m_canvas->minimumHeight() != height && height > size.height() + 1) {
      m_canvas->setMinimumHeight(height);
    } else if (height <= size.height() + 1 && m_canvas->minimumHeight() != 0) {
      m_canvas->setMinimumHeight(0);
    }
  }
  updateControls();
  m_canvas->update();
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
  m_hidden->setText(m_lines.hiddenLines > 0 ? tr("hidden lines: %1").arg(m_lines.hiddenLines)
                                            : QString());
  const QString message = this->message();
  m_message->setText(message);
  m_message->setVisible(!message.isEmpty());
  m_export->setEnabled(message.isEmpty());
}

void HeadView::paintCanvas(QPainter& painter) const {
  painter.fillRect(m_canvas->rect(), palette().base());
  if (m_lines.queries.empty()) return;
  HeadViewLook look;
  look.background = palette().color(QPalette::Base);
  look.ink = palette().color(QPalette::Text);
  look.faint = palette().color(QPalette::PlaceholderText);
  look.font = font();
  look.colormap = m_view.colormap;
  paintHeadLines(painter, m_lines, look);
}

QString HeadView::exportTo(const QString& path, ExportOptions options) const {
  if (!m_result) return message();
  return exportHeadView(*m_result, m_view, m_choice, options, path);
}

void HeadView::exportWithDialog() {
  const QString path = QFileDialog::getSaveFileName(
      this, tr("Export head view"), QStringLiteral("head_view.png"),
      tr("PNG image (*.png);;SVG image (*.svg);;PDF document (*.pdf)"));
  if (path.isEmpty()) return;
  ExportOptions options;
  options.width = std::max(m_canvas->width(), 400);
  options.height = std::max(m_scroll->viewport()->height(), 300);
  options.scale = 2.0;  // sharp on paper and slides
  const QString error = exportTo(path, options);
  if (!error.isEmpty()) QMessageBox::warning(this, tr("Export head view"), error);
}

void HeadView::changeEvent(QEvent* event) {
  if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange) relayout();
  if (event->type() == QEvent::LanguageChange) {
    rebuildChips();
    updateControls();
  }
  QWidget::changeEvent(event);
}

}  // namespace mhaviz::ui
