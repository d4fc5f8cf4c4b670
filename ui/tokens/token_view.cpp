// What the token views share (token_view.hpp).
#include "tokens/token_view.hpp"

#include <QEvent>
#include <QKeyEvent>
#include <QLabel>
#include <QScrollArea>
#include <QToolButton>
#include <QToolTip>
#include <QVBoxLayout>
#include <exception>

#include "mhaviz/core/base/errors.hpp"
#include "tokens/token_canvas.hpp"

namespace mhaviz::ui {

TokenView::TokenView(const QString& name, const QString& exportTip, QWidget* parent)
    : QWidget(parent),
      m_layout(new QVBoxLayout(this)),
      m_pinText(new QLabel),
      m_message(new QLabel),
      m_export(new QToolButton),
      m_scroll(new QScrollArea) {
  m_canvas = new TokenCanvas(
      name + QStringLiteral("Canvas"),
      {[this](QPainter& painter, const QRectF& exposed) { paintCanvas(painter, exposed); },
       [this] { relayout(); }, [this](QPointF at) { pointerMoved(at); },
       [this](QPointF at) { pointerClicked(at); }, [this] { pointerLeft(); }});
  setObjectName(name);
  m_layout->setContentsMargins(4, 4, 4, 4);
  m_export->setText(tr("Export\u2026"));
  m_export->setToolTip(exportTip);
  m_pinText->setObjectName(name + QStringLiteral("Pin"));
  connect(m_export, &QToolButton::clicked, this, &TokenView::exportRequested);
}

TokenView::~TokenView() = default;

void TokenView::addControls(QLayout* row) { m_layout->addLayout(row); }

void TokenView::addControls(QWidget* widget) { m_layout->addWidget(widget); }

void TokenView::addCanvas() {
  m_pinText->setWordWrap(true);
  m_pinText->hide();
  m_layout->addWidget(m_pinText);
  m_message->setWordWrap(true);
  m_message->hide();
  m_layout->addWidget(m_message);
  m_scroll->setWidget(m_canvas);
  m_scroll->setWidgetResizable(true);
  m_scroll->setFrameShape(QFrame::NoFrame);
  m_layout->addWidget(m_scroll, 1);
}

QWidget* TokenView::canvas() const { return m_canvas; }

QString TokenView::message() const {
  if (!m_error.isEmpty()) return m_error;
  if (!m_result) return tr("No result yet.");
  return {};
}

void TokenView::setResult(std::shared_ptr<const mhaviz::ForwardResult> result,
                          const ViewOptions& view,
                          std::shared_ptr<const mhaviz::ResultMeasures> measures,
                          std::shared_ptr<const mhaviz::model::PatchPictures> pictures) {
  // A hover tooltip described a token of the result before (a bias_k key that may be gone).
  if (QToolTip::isVisible() && !m_canvas->toolTip().isEmpty() &&
      QToolTip::text() == m_canvas->toolTip()) {
    QToolTip::hideText();
  }
  m_canvas->setToolTip({});
  m_result = std::move(result);
  m_measures = std::move(measures);
  m_pictures = std::move(pictures);
  m_view = view;
  m_data = {};
  m_error.clear();
  if (m_result) {
    try {
      m_data = readData(*m_result, view, m_measures.get());
      m_data.result = m_result;      // the described maps read its memory: kept alive with them
      m_data.measures = m_measures;  // described value norms read them
    } catch (const std::exception& e) {
      m_error = QString::fromUtf8(e.what());
    }
  }
  // Cut once per image, batch element and token count (a new result of the same layer, or a
  // new view of it, keeps them).
  const PicturesKey key{m_pictures, view.batch, m_result ? m_result->L : -1,
                        m_result ? m_result->S : -1};
  if (!m_result || !m_error.isEmpty()) {
    m_tokenPictures.clear();
    m_picturesKey = {};
  } else if (!(key == m_picturesKey)) {
    m_tokenPictures = tokenPictures(m_pictures.get(), *m_result, view.batch);
    m_picturesKey = key;
  }
  resultChanged();
}

void TokenView::showPinAndMessage(const QString& pin) {
  m_pinText->setText(pin);
  m_pinText->setVisible(!pin.isEmpty());
  const QString message = this->message();
  m_message->setText(message);
  m_message->setVisible(!message.isEmpty());
  m_export->setEnabled(message.isEmpty());
}

QString TokenView::pinnedQueryText(int query) {
  return tr("Pinned: query %1. Click it again or press Esc to release.").arg(query);
}

void TokenView::fillLook(TokenLook& look) const {
  look.background = palette().color(QPalette::Base);
  look.ink = palette().color(QPalette::Text);
  look.faint = palette().color(QPalette::PlaceholderText);
  look.font = font();
  look.pictures = m_tokenPictures;
}

QString TokenView::exportTo(const QString& path, ExportOptions options) const {
  if (!m_result) return message();
  return exportPicture(
      path, options, [this](const ExportOptions& o) { return checkSize(o); },
      [&] { return makePicture(options); });
}

PictureSource TokenView::picture(const ExportOptions& options) const {
  if (!m_result) throw mhaviz::InvalidInput(message().toStdString());
  return makePicture(options);
}

void TokenView::keyPressEvent(QKeyEvent* event) {
  if (event->key() == Qt::Key_Escape && releasePin()) return;
  QWidget::keyPressEvent(event);
}

void TokenView::changeEvent(QEvent* event) {
  if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange) relayout();
  if (event->type() == QEvent::LanguageChange) retranslate();
  QWidget::changeEvent(event);
}

}  // namespace mhaviz::ui
