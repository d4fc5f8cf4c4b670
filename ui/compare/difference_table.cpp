// The largest |B − A| of each layer and head (difference_table.hpp).
#include "compare/difference_table.hpp"

#include <QColor>
#include <QCoreApplication>
#include <QFont>
#include <algorithm>
#include <cmath>

#include "stages/layer_name.hpp"

namespace mhaviz::ui {

namespace model = mhaviz::model;

QString differenceText(double v) {
  if (std::isnan(v)) return QStringLiteral("NaN");
  if (std::isinf(v)) return QStringLiteral("\u221e");
  return QString::number(v, 'g', 2);
}

void DifferenceTable::set(std::shared_ptr<const model::WeightsDifference> difference,
                          std::shared_ptr<const model::Model> model) {
  beginResetModel();
  // (a difference has no layer names without its model: nothing to show, not a crash)
  m_difference = model ? std::move(difference) : nullptr;
  m_model = std::move(model);
  m_heads = 0;
  if (m_difference) {
    for (const auto& layer : m_difference->largest)
      m_heads = std::max(m_heads, static_cast<int>(layer.size()));
  }
  endResetModel();
}

int DifferenceTable::rowCount(const QModelIndex& parent) const {
  return parent.isValid() || !m_difference ? 0
                                           : static_cast<int>(m_difference->largest.size());
}

int DifferenceTable::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : m_heads;
}

QVariant DifferenceTable::data(const QModelIndex& index, int role) const {
  if (!m_difference || !index.isValid()) return {};
  const auto& row = m_difference->largest[static_cast<std::size_t>(index.row())];
  if (index.column() >= static_cast<int>(row.size())) return {};
  const auto at = static_cast<std::size_t>(index.column());
  const double v = row[at];
  const double worst = m_difference->worst;
  const double share = std::isnan(v) ? 1.0 : worst > 0 ? std::clamp(v / worst, 0.0, 1.0) : 0.0;
  const bool largest = static_cast<std::size_t>(index.row()) == m_difference->worst_layer &&
                       index.column() == m_difference->worst_head && worst > 0;
  switch (role) {
    case Qt::DisplayRole:
      return differenceText(v);
    case Qt::TextAlignmentRole:
      return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::BackgroundRole:
      if (share <= 0) return {};
      return QColor::fromRgbF(1.0F, static_cast<float>(1.0 - 0.72 * share),
                              static_cast<float>(1.0 - 0.72 * share));
    case Qt::ForegroundRole:
      if (share <= 0) return {};
      return QColor(share > 0.75 ? Qt::white : Qt::black);
    case Qt::FontRole:
      if (largest) {
        QFont bold;
        bold.setBold(true);
        return bold;
      }
      return {};
    case Qt::ToolTipRole:
      return QCoreApplication::translate("mhaviz::ui::ModelCompare",
                                         "%1, head %2: largest |B \u2212 A| %3, mean %4")
          .arg(modelLayerName(m_model->index, static_cast<std::size_t>(index.row())))
          .arg(index.column())
          .arg(differenceText(v))
          .arg(differenceText(m_difference->mean[static_cast<std::size_t>(index.row())][at]));
    default:
      return {};
  }
}

QVariant DifferenceTable::headerData(int section, Qt::Orientation orientation, int role) const {
  if (!m_model) return {};
  if (orientation == Qt::Horizontal) {
    if (role == Qt::DisplayRole)
      return QCoreApplication::translate("mhaviz::ui::ModelCompare", "h%1").arg(section);
    if (role == Qt::ToolTipRole)
      return QCoreApplication::translate("mhaviz::ui::ModelCompare", "head %1").arg(section);
    return {};
  }
  const auto layer = static_cast<std::size_t>(section);
  if (role == Qt::DisplayRole && layer < m_model->index.layers.size()) {
    const model::LayerInfo& info = m_model->index.layers[layer];
    const auto n = static_cast<int>(model::layer_number(m_model->index, layer));
    return info.step >= 0 ? QCoreApplication::translate("mhaviz::ui::ModelCompare",
                                                        "layer %1, step %2")
                                .arg(n)
                                .arg(info.step)
                          : QCoreApplication::translate("mhaviz::ui::ModelCompare", "layer %1")
                                .arg(n);
  }
  if (role == Qt::ToolTipRole) return modelLayerName(m_model->index, layer);
  return {};
}

}  // namespace mhaviz::ui
