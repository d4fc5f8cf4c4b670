#include "teach/teach_docks.hpp"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QStringList>
#include <QTableWidget>
#include <QTextBrowser>
#include <QTextDocument>
#include <QUrl>
#include <QVBoxLayout>
#include <exception>

#include "document/document.hpp"
#include "mhaviz/core/spec/shapes.hpp"
#include "render/token_pictures.hpp"
#include "stages/param_stage.hpp"
#include "teach/cell_breakdown.hpp"
#include "teach/stage_guide.hpp"
#include "teach/weight_entry.hpp"

namespace mhaviz::ui {

// --- WalkthroughDock ---------------------------------------------------------------------------

WalkthroughDock::WalkthroughDock(Document* document, QWidget* parent)
    : QDockWidget(tr("Walk-through"), parent), m_document(document) {
  setObjectName(QStringLiteral("walkthroughDock"));
  auto* body = new QWidget;
  auto* layout = new QVBoxLayout(body);
  auto* buttons = new QHBoxLayout;
  m_prev = new QPushButton(tr("\u25c0 Previous"));
  m_next = new QPushButton(tr("Next \u25b6"));
  m_prev->setObjectName(QStringLiteral("walkPrevious"));
  m_next->setObjectName(QStringLiteral("walkNext"));
  m_prev->setToolTip(tr("Previous stage (Left arrow on the grid)"));
  m_next->setToolTip(tr("Next stage (Right arrow on the grid)"));
  buttons->addWidget(m_prev);
  buttons->addWidget(m_next);
  layout->addLayout(buttons);
  m_title = new QLabel;
  QFont titleFont = m_title->font();
  titleFont.setBold(true);
  m_title->setFont(titleFont);
  m_explanation = new QLabel;
  m_explanation->setWordWrap(true);
  m_code = new QLabel;
  // Rich text <pre> (not setFont or a style sheet) so that the code follows the presentation
  // mode's larger application font and the high-contrast palette.
  m_code->setTextFormat(Qt::RichText);
  m_code->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_code->setWordWrap(true);
  m_code->setFrameShape(QFrame::StyledPanel);
  layout->addWidget(m_title);
  layout->addWidget(m_explanation);
  layout->addWidget(new QLabel(tr("PyTorch (F.multi_head_attention_forward):")));
  layout->addWidget(m_code);
  layout->addStretch(1);
  setWidget(body);

  connect(m_prev, &QPushButton::clicked, this, [this] { step(-1); });
  connect(m_next, &QPushButton::clicked, this, [this] { step(+1); });
  connect(document, &Document::changed, this, [this, document](Document::Changes what) {
    if (what & (Document::Change::view | Document::Change::result)) {
      showStage(document->view().stage);
    }
  });
  showStage(document->view().stage);
}

void WalkthroughDock::step(int delta) {
  const ResultPtr result = m_document->computed().result;
  ViewOptions view = m_document->view();
  view.stage = stepFrom(view.stage, delta, result.get());
  m_document->setView(view);
}

void WalkthroughDock::showStage(Stage stage) {
  const ResultPtr result = m_document->computed().result;
  GuideStep step = guideStep(stage, result.get());
  // Without dropout the weights are the softmax itself: explain the softmax.
  if (stage == Stage::weights && result && !result->weights_before_dropout) {
    const GuideStep softmax = guideStep(Stage::weights_before_dropout);
    step.title = softmax.title;
    step.explanation = softmax.explanation;
    step.code = softmax.code;
  }
  const QList<Stage> stages = walkStages(result.get());
  const auto index = stages.indexOf(stage);
  m_title->setText(tr("Step %1 of %2: %3").arg(index + 1).arg(stages.size()).arg(step.title));
  m_explanation->setText(step.explanation);
  m_codeText = step.code;
  m_code->setText(QStringLiteral("<pre style='margin:0'>%1</pre>").arg(step.code.toHtmlEscaped()));
  m_prev->setEnabled(index != 0);
  m_next->setEnabled(index != stages.size() - 1);
  emit stepShown(step.title, step.explanation);
}

QString WalkthroughDock::codeText() const { return m_codeText; }

// --- BreakdownDock -----------------------------------------------------------------------------

BreakdownDock::BreakdownDock(QWidget* parent) : QDockWidget(tr("Cell breakdown"), parent) {
  setObjectName(QStringLiteral("breakdownDock"));
  m_text = new QTextBrowser;
  m_text->setHtml(
      tr("<p>Click a cell of the weights, scores, raw scores or mask maps to see "
         "its arithmetic, or an entry of a weight matrix to see which features it "
         "connects.</p>"));
  setWidget(m_text);
}

QString BreakdownDock::patchesHtml(const mhaviz::ForwardResult& result, const ViewOptions& view,
                                   int row, int col, const mhaviz::model::PatchPictures* pictures) {
  m_patches = {};
  if (!picturesFit(pictures, result, view.batch)) return {};
  const bool sourceKey = col >= 0 && col < result.S;
  m_patches.first = patchPicture(*pictures, view.batch, row);
  if (sourceKey) m_patches.second = patchPicture(*pictures, view.batch, col);
  if (m_patches.first.isNull() && m_patches.second.isNull()) return {};
  const auto label = [](const QStringList& labels, int i) {
    return i >= 0 && i < labels.size() && !labels[i].isEmpty() ? labels[i] : QString::number(i);
  };
  // Two patches a few text lines tall, each before its token's name.
  const auto token = [this](const QImage& picture, const QString& name, const QString& text) {
    QString html;
    if (!picture.isNull()) {
      const QUrl url(QStringLiteral("mhaviz-patch://") + name);
      m_text->document()->addResource(QTextDocument::ImageResource, url, picture);
      html +=
          QStringLiteral("<img src='%1' width='48' height='48' style='vertical-align: middle'> ")
              .arg(url.toString());
    }
    return html + text.toHtmlEscaped();
  };
  QString html = QStringLiteral("<p>") +
                 token(m_patches.first, QStringLiteral("query"),
                       tr("query %1 \u201c%2\u201d").arg(row).arg(label(view.queryLabels, row)));
  if (sourceKey) {
    html += QStringLiteral(" &nbsp;&nbsp; ") +
            token(m_patches.second, QStringLiteral("key"),
                  tr("key %1 \u201c%2\u201d").arg(col).arg(label(view.keyLabels, col)));
  }
  return html + QStringLiteral("</p>");
}

void BreakdownDock::showCell(const ResultPtr& result, const ViewOptions& view, int map, int row,
                             int col, const mhaviz::model::PatchPictures* pictures) {
  m_patches = {};
  if (!result) return;
  if (isParamStage(view.stage) && !result->is_reduced()) {
    // A weight entry: which output feature its row makes, which input feature it reads.
    try {
      m_text->setHtml(weightEntryHtml(weightEntry(*result, view, map, row, col)));
    } catch (const std::exception& e) {
      m_text->setHtml(QStringLiteral("<p>%1</p>").arg(QString::fromUtf8(e.what()).toHtmlEscaped()));
    }
    show();
    raise();
    return;
  }
  const bool cellStage = view.stage == Stage::weights ||
                         view.stage == Stage::weights_before_dropout ||
                         view.stage == Stage::scores || view.stage == Stage::raw_scores ||
                         view.stage == Stage::capped_scores || view.stage == Stage::mask;
  if (!cellStage) {
    m_text->setHtml(
        tr("<p>The breakdown explains attention cells: choose the weights, scores, "
           "raw scores or mask stage and click a cell.</p>"));
    return;
  }
  if (result->is_reduced()) {
    m_text->setHtml(
        tr("<p>This map is reduced: each value is the mean or maximum of a block of cells, and "
           "the intermediates of single cells are not kept. The exact weights of a part: "
           "<code>mhaviz-cli run --head H --queries A:B</code>.</p>"));
    show();
    raise();
    return;
  }
  const bool solo = view.soloHead >= 0 && view.soloHead < result->H;
  const std::int64_t h = solo ? view.soloHead : map;
  try {
    QString html = !solo && h >= result->H
                       ? averageHtml(*result, view.batch, row, col,
                                     view.stage == Stage::weights_before_dropout)
                       : breakdownHtml(breakdownCell(*result, view.batch, h, row, col));
    // The patches under the heading (a layer over an image).
    const QString patches = patchesHtml(*result, view, row, col, pictures);
    const qsizetype heading = html.indexOf(QStringLiteral("</h3>"));
    html.insert(heading >= 0 ? heading + 5 : 0, patches);
    m_text->setHtml(html);
  } catch (const std::exception& e) {
    m_text->setHtml(QStringLiteral("<p>%1</p>").arg(QString::fromUtf8(e.what()).toHtmlEscaped()));
  }
  show();
  raise();
}

void BreakdownDock::clearCell() {
  m_text->setHtml(
      tr("<p>Click a cell of the weights, scores, raw scores or mask maps to see "
         "its arithmetic, or an entry of a weight matrix to see which features it "
         "connects.</p>"));
}

QString BreakdownDock::html() const { return m_text->toHtml(); }

// --- ShapeFlowDock -----------------------------------------------------------------------------

ShapeFlowDock::ShapeFlowDock(QWidget* parent) : QDockWidget(tr("Shape flow"), parent) {
  setObjectName(QStringLiteral("shapeFlowDock"));
  m_table = new QTableWidget(0, 4);
  m_table->setHorizontalHeaderLabels({tr("Step"), tr("Tensor"), tr("Symbolic"), tr("Concrete")});
  // The shapes are short and sized to their contents; the step's long text takes what is left
  // (elided, full text in the tooltip), so every column is visible in a narrow dock.
  m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  m_table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
  m_table->horizontalHeader()->setMinimumSectionSize(40);
  m_table->verticalHeader()->setVisible(false);
  m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  setWidget(m_table);
}

void ShapeFlowDock::showConfig(const mhaviz::Config& config) {
  QList<QStringList> rows;
  try {
    for (const mhaviz::ShapeStep& s : mhaviz::shape_flow(config)) {
      rows.append({QString::fromStdString(s.step), QString::fromStdString(s.tensor),
                   QString::fromStdString(s.symbolic),
                   QString::fromStdString(mhaviz::shape_str(s.shape))});
    }
  } catch (const std::exception& e) {
    rows = {{QString::fromUtf8(e.what()), {}, {}, {}}};
  }
  // Most changes (a seed, a toggle) keep every shape; refilling the table costs milliseconds
  // of the GUI thread on each of them.
  if (rows == m_shown) return;
  m_shown = rows;
  // Sized to the contents once, not after each of the cells.
  QHeaderView* header = m_table->horizontalHeader();
  header->setSectionResizeMode(QHeaderView::Interactive);
  m_table->setRowCount(static_cast<int>(rows.size()));
  for (int r = 0; r < static_cast<int>(rows.size()); ++r) {
    for (int c = 0; c < 4; ++c) {
      auto* item = new QTableWidgetItem(rows[r][c]);
      item->setToolTip(rows[r][c]);
      m_table->setItem(r, c, item);
    }
  }
  header->setSectionResizeMode(QHeaderView::ResizeToContents);
  header->setSectionResizeMode(0, QHeaderView::Stretch);
}

}  // namespace mhaviz::ui
