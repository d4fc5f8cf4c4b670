#pragma once
// The table of a comparison of two model files (compare/model_compare.hpp): each layer's (rows)
// and head's (columns) largest |B − A|, shaded from the window's base colour (no difference) to
// red (the largest), the largest in bold, the mean in each cell's tooltip. GUI thread only.

#include <QAbstractTableModel>
#include <QString>
#include <memory>

#include "mhaviz/core/model/model.hpp"
#include "mhaviz/core/model/weights_only.hpp"

namespace mhaviz::ui {

/// A difference as the table and the line above the grids write it ("0.25", "NaN", "∞").
QString differenceText(double v);

class DifferenceTable : public QAbstractTableModel {
 public:
  using QAbstractTableModel::QAbstractTableModel;
  /// Shows `difference` (null: nothing), its layers named from `model`'s index (null: nothing
  /// either).
  void set(std::shared_ptr<const mhaviz::model::WeightsDifference> difference,
           std::shared_ptr<const mhaviz::model::Model> model);
  [[nodiscard]] int rowCount(const QModelIndex& parent) const override;
  [[nodiscard]] int columnCount(const QModelIndex& parent) const override;
  [[nodiscard]] QVariant data(const QModelIndex& index, int role) const override;
  [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation,
                                    int role) const override;

 private:
  std::shared_ptr<const mhaviz::model::WeightsDifference> m_difference;
  std::shared_ptr<const mhaviz::model::Model> m_model;  // names the layers
  int m_heads = 0;
};

}  // namespace mhaviz::ui
