#include "model/model_mode_bar.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QSlider>
#include <QStandardItemModel>
#include <QStringList>
#include <QVBoxLayout>
#include <cmath>
#include <exception>

namespace mhaviz::ui {

namespace {

QString percent(const SinkRate& r) {
  return std::isnan(r.rate()) ? QStringLiteral("–")
                              : QStringLiteral("%1%").arg(100.0 * r.rate(), 0, 'f', 0);
}

}  // namespace

ModelModeBar::ModelModeBar(QWidget* parent)
    : QWidget(parent),
      m_mode(new QComboBox),
      m_stepBox(new QWidget),
      m_step(new QSlider(Qt::Horizontal)),
      m_stepText(new QLabel),
      m_epsEdit(new QLineEdit),
      m_epsError(new QLabel),
      m_rates(new QLabel) {
  setObjectName(QStringLiteral("modelModeBar"));
  m_mode->setObjectName(QStringLiteral("modelMode"));
  m_mode->addItem(tr("Layers × heads"), int(ModelMode::grid));
  m_mode->addItem(tr("Attention rollout"), int(ModelMode::rollout));
  m_mode->addItem(tr("Attention flow"), int(ModelMode::flow));
  m_mode->addItem(tr("Newest token per step"), int(ModelMode::step));
  m_mode->setItemData(1,
                      tr("Abnar & Zuidema's attention rollout: the self-attention layers' "
                         "head-averaged weights, with the residual, multiplied"),
                      Qt::ToolTipRole);
  m_mode->setItemData(2,
                      tr("Abnar & Zuidema's attention flow: the largest flow from each output "
                         "token to each input token through the layers (rows normalised)"),
                      Qt::ToolTipRole);
  m_mode->setItemData(3,
                      tr("A generation capture: each layer's heads from the newest position "
                         "of the chosen step, whose output gives the generated token"),
                      Qt::ToolTipRole);
  auto* modeLabel = new QLabel(tr("Vie&w"));
  modeLabel->setBuddy(m_mode);

  m_step->setObjectName(QStringLiteral("modelStep"));
  m_step->setPageStep(1);
  m_step->setMinimumWidth(120);
  m_step->setToolTip(tr("The generation step: arrows, Page Up/Down, Home and End move it"));
  m_stepText->setObjectName(QStringLiteral("modelStepText"));
  // On a line of its own below the slider, as wide as the bar: beside the slider it was a
  // narrow column whose last words (the generated token) were cut at 1280x720.
  m_stepText->setWordWrap(true);  // never widens the window beside the token docks
  auto* stepLabel = new QLabel(tr("&Generation step"));
  stepLabel->setBuddy(m_step);
  auto* stepRow = new QHBoxLayout(m_stepBox);
  stepRow->setContentsMargins(0, 0, 0, 0);
  stepRow->addWidget(stepLabel);
  stepRow->addWidget(m_step, 1);
  m_stepBox->hide();
  m_stepText->hide();

  m_epsEdit->setObjectName(QStringLiteral("modelSinkEps"));
  m_epsEdit->setText(QLocale::c().toString(kDefaultSinkEps));
  m_epsEdit->setMaximumWidth(m_epsEdit->fontMetrics().horizontalAdvance(QStringLiteral("0.0000")) +
                             16);
  m_epsEdit->setToolTip(
      tr("Sink threshold ε in (0, 1]: a head counts as a sink head when the "
         "first token's sink score (its mean weight over the queries) is above "
         "it (Gu et al. use 0.3)"));
  auto* epsLabel = new QLabel(tr("Sin&k ε"));
  epsLabel->setBuddy(m_epsEdit);
  m_epsError->setObjectName(QStringLiteral("modelSinkEpsError"));
  m_epsError->setWordWrap(true);
  m_epsError->setStyleSheet(QStringLiteral("color: #c81e1e;"));
  m_epsError->hide();
  m_rates->setObjectName(QStringLiteral("modelSinkRates"));
  m_rates->setWordWrap(true);
  m_rates->setTextInteractionFlags(Qt::TextSelectableByMouse);

  auto* top = new QHBoxLayout;
  top->setContentsMargins(0, 0, 0, 0);
  top->addWidget(modeLabel);
  top->addWidget(m_mode);
  top->addSpacing(12);
  top->addWidget(m_stepBox, 1);
  top->addStretch(0);
  auto* sink = new QHBoxLayout;
  sink->setContentsMargins(0, 0, 0, 0);
  sink->addWidget(epsLabel);
  sink->addWidget(m_epsEdit);
  sink->addWidget(m_rates, 1);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addLayout(top);
  layout->addWidget(m_stepText);
  layout->addLayout(sink);
  layout->addWidget(m_epsError);

  connect(m_mode, &QComboBox::currentIndexChanged, this, [this] { emit viewChanged(); });
  connect(m_step, &QSlider::valueChanged, this, [this] {
    showStep();
    emit viewChanged();
  });
  connect(m_epsEdit, &QLineEdit::editingFinished, this, [this] { applySinkEps(); });
  setModel(nullptr, nullptr);
}

void ModelModeBar::setModel(const model::Model* model, const model::ComputedModel* computed) {
  m_model = model;
  m_computed = computed;
  const std::int64_t steps = model != nullptr ? model->index.steps : 0;
  const QSignalBlocker blockStep(m_step);
  const QSignalBlocker blockMode(m_mode);
  m_step->setRange(0, steps > 0 ? int(steps - 1) : 0);
  m_step->setValue(m_step->maximum());
  m_stepBox->setVisible(steps > 0);
  m_stepText->setVisible(steps > 0);
  // The step view only for a generation capture. A model opened starts at its default view
  // (the step view of a generation capture, else the grid), whatever the one before showed: its
  // caption speaks of its layers and heads, which rollout or flow would hide.
  if (auto* items = qobject_cast<QStandardItemModel*>(m_mode->model()))
    items->item(3)->setEnabled(steps > 0);
  m_mode->setCurrentIndex(m_mode->findData(int(steps > 0 ? ModelMode::step : ModelMode::grid)));
  showStep();
  showSinkRates();
}

ModelMode ModelModeBar::mode() const { return ModelMode(m_mode->currentData().toInt()); }

void ModelModeBar::setMode(ModelMode mode) {
  const int at = m_mode->findData(int(mode));
  if (at >= 0) m_mode->setCurrentIndex(at);
}

int ModelModeBar::step() const {
  return m_model != nullptr && m_model->index.steps > 0 ? m_step->value() : -1;
}

void ModelModeBar::setStep(int step) { m_step->setValue(step); }

QString ModelModeBar::sinkEpsError() const {
  return m_epsError->isHidden() ? QString() : m_epsError->text();
}

QString ModelModeBar::sinkRateText() const { return m_rates->text(); }

void ModelModeBar::enterSinkEps(const QString& text) {
  m_epsEdit->setText(text);
  applySinkEps();
}

void ModelModeBar::applySinkEps() {
  bool ok = false;
  const double eps = QLocale::c().toDouble(m_epsEdit->text().trimmed(), &ok);
  QString problem;
  if (!ok) {
    problem = tr("Sink ε \"%1\" is not a number: give a weight share in (0, 1], e.g. 0.3")
                  .arg(m_epsEdit->text());
  } else {
    try {
      check_sink_eps(eps, "Sink ε");
    } catch (const std::exception& e) {
      problem = QString::fromUtf8(e.what());
    }
  }
  if (!problem.isEmpty()) {
    problem = tr("%1 (the rate shown is still that of ε = %2)")
                  .arg(problem, QLocale::c().toString(m_eps));
  }
  m_epsError->setText(problem);
  m_epsError->setVisible(!problem.isEmpty());
  if (!problem.isEmpty()) return;  // the rate shown stays that of the last valid ε
  m_eps = eps;
  showSinkRates();
}

void ModelModeBar::showSinkRates() {
  if (m_model == nullptr || m_computed == nullptr) {
    m_rates->clear();
    return;
  }
  const model::ModelSinkRates rates = model::sink_rates(*m_computed, m_eps);
  QStringList layers;
  for (std::size_t i = 0; i < rates.per_layer.size(); ++i)
    layers << QStringLiteral("%1: %2").arg(i).arg(percent(rates.per_layer[i]));
  m_rates->setText(tr("Sink rate (Gu et al. 2024), the share of heads whose first-token sink "
                      "score is above ε: %1 overall (%2 of %3 heads); per layer %4")
                       .arg(percent(rates.overall))
                       .arg(rates.overall.sinks)
                       .arg(rates.overall.heads)
                       .arg(layers.join(QStringLiteral(", "))));
}

void ModelModeBar::showStep() {
  if (m_model == nullptr || m_model->index.steps == 0) {
    m_stepText->clear();
    return;
  }
  const int t = m_step->value();
  const std::vector<std::size_t> layers = model::step_layers(m_model->index, t);
  const std::int64_t position = m_model->layers[layers.front()].info.config.src_len - 1;
  const std::vector<std::string>& tokens = m_model->index.tokens;
  const auto label = [&](std::int64_t p) {
    return p < std::int64_t(tokens.size())
               ? QStringLiteral(" (%1)").arg(QString::fromStdString(tokens[std::size_t(p)]))
               : QString();
  };
  QString text = tr("%1 of 0–%2: position %3%4")
                     .arg(t)
                     .arg(m_model->index.steps - 1)
                     .arg(position)
                     .arg(label(position));
  if (position + 1 < std::int64_t(tokens.size()))
    text += tr(" generates %1").arg(QString::fromStdString(tokens[std::size_t(position + 1)]));
  m_stepText->setText(text);
}

}  // namespace mhaviz::ui
