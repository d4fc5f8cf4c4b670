#include "window/status_widgets.hpp"

#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QStatusBar>

#include "compute/computation.hpp"
#include "document/document.hpp"
#include "mhaviz/core/plan/memory.hpp"

namespace mhaviz::ui {

void StatusWidgets::showOutOfDate() {
  const QString why = m_document->computed().outOfDateReason;
  const bool repeated = why.isEmpty() || why == m_document->computed().error;
  m_outOfDate->setText(repeated ? tr("Out of date: showing the last computed result") : why);
  m_outOfDate->setToolTip(why);
  m_outOfDate->setVisible(m_document->computed().outOfDate);
}

QString formatMs(double ms) {
  if (ms < 1000.0) return QStringLiteral("%1 ms").arg(ms, 0, 'f', ms < 10.0 ? 2 : 1);
  return QStringLiteral("%1 s").arg(ms / 1000.0, 0, 'f', 2);
}

StatusWidgets::StatusWidgets(QStatusBar* bar, Document* document, Computation* computation,
                             QObject* parent)
    : QObject(parent),
      m_document(document),
      m_bar(bar),
      m_hover(new QLabel),
      m_compute(new QLabel),
      m_render(new QLabel),
      m_memory(new QLabel),
      m_outOfDate(new QLabel),
      m_batch(new QLabel),
      m_reduced(new QLabel),
      m_progress(new QProgressBar),
      m_cancel(new QPushButton(tr("Cancel"))) {
  m_hover->setObjectName(QStringLiteral("hoverLabel"));
  m_hover->setTextFormat(Qt::PlainText);
  m_hover->setMinimumWidth(120);
  m_compute->setObjectName(QStringLiteral("computeTime"));
  m_compute->setToolTip(tr("Time the worker thread spent in the forward pass"));
  m_render->setObjectName(QStringLiteral("renderTime"));
  m_render->setToolTip(tr("Time spent drawing the heatmaps"));
  m_memory->setObjectName(QStringLiteral("resultMemory"));
  m_memory->setToolTip(tr("Memory held by the result: every intermediate tensor"));
  m_batch->setObjectName(QStringLiteral("batchShown"));
  m_batch->hide();
  m_reduced->setObjectName(QStringLiteral("reducedNote"));
  m_reduced->setToolTip(
      tr("Every map of this configuration does not fit in memory: the exact weights are "
         "computed stripe by stripe and each block of cells is shown as its mean or maximum "
         "(View: reduce). Zoom in with the wheel: the visible region is computed again, as "
         "exact cells once it is small enough; wheel out over the whole region to return. "
         "mhaviz-cli run --head H --queries A:B writes exact weights of a part."));
  m_reduced->hide();
  m_outOfDate->setObjectName(QStringLiteral("outOfDateNote"));
  m_outOfDate->setStyleSheet(QStringLiteral("QLabel { color: #b00020; font-weight: bold; }"));
  m_outOfDate->hide();
  m_progress->setObjectName(QStringLiteral("progress"));
  m_progress->setMinimumWidth(150);  // "12345 / 32768 blocks" fits inside the bar
  m_progress->setMaximumWidth(200);
  m_progress->setTextVisible(true);
  m_progress->hide();
  m_cancel->setObjectName(QStringLiteral("cancelButton"));
  m_cancel->setToolTip(tr("Stop the running computation (Esc); the picture stays."));
  m_cancel->hide();

  bar->addWidget(m_hover, 1);
  bar->addPermanentWidget(m_reduced);
  bar->addPermanentWidget(m_batch);
  bar->addPermanentWidget(m_outOfDate);
  bar->addPermanentWidget(m_progress);
  bar->addPermanentWidget(m_cancel);
  bar->addPermanentWidget(m_compute);
  bar->addPermanentWidget(m_render);
  bar->addPermanentWidget(m_memory);

  m_delay.setSingleShot(true);
  m_delay.setInterval(250);
  connect(&m_delay, &QTimer::timeout, this, [this] {
    if (!m_document->computed().busy) return;
    m_progress->setRange(0, 0);  // busy indicator until the first progress report
    m_progress->show();
    m_cancel->show();
  });
  connect(m_cancel, &QPushButton::clicked, computation, &Computation::cancel);
  const auto showBatch = [this] {
    const ResultPtr result = m_document->computed().result;
    const qint64 N = result ? result->N : 1;
    m_batch->setText(tr("batch element n = %1 of %2").arg(m_document->view().batch).arg(N));
    m_batch->setVisible(N > 1);
  };
  connect(document, &Document::changed, this, [this, showBatch](Document::Changes what) {
    if (what & (Document::Change::view | Document::Change::result)) showBatch();
    if (what & Document::Change::busy) showBusy();
    if (what & Document::Change::outOfDate) showOutOfDate();
    if (what & Document::Change::reduced) {
      m_reduced->setText(m_document->computed().reduced);
      m_reduced->setVisible(!m_reduced->text().isEmpty());
    }
  });
  connect(computation, &Computation::progress, this, [this](qint64 done, qint64 total) {
    if (total <= 0 || !m_progress->isVisible()) return;
    m_progress->setRange(0, 1000);
    m_progress->setValue(static_cast<int>(done * 1000 / total));
    m_progress->setFormat(tr("%1 / %2 blocks").arg(done).arg(total));
  });
  connect(computation, &Computation::cancelled, this,
          [this] { m_bar->showMessage(tr("Computation cancelled"), 4000); });
}

void StatusWidgets::showBusy() {
  if (m_document->computed().busy) {
    m_delay.start();
    m_compute->setText(tr("computing…"));
    return;
  }
  m_delay.stop();
  m_progress->hide();
  m_cancel->hide();
  if (m_compute->text() == tr("computing…")) m_compute->clear();
}

void StatusWidgets::showTimes(double computeMs, double renderMs, std::size_t resultBytes) {
  m_compute->setText(tr("compute %1").arg(formatMs(computeMs)));
  m_render->setText(tr("render %1").arg(formatMs(renderMs)));
  m_memory->setText(tr("result %1").arg(QString::fromStdString(mhaviz::format_bytes(resultBytes))));
}

void StatusWidgets::showHover(const QString& text) { m_hover->setText(text); }

void StatusWidgets::showMessage(const QString& text) { m_bar->showMessage(text); }

}  // namespace mhaviz::ui
