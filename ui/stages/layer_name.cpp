// A layer's name in the window's language (layer_name.hpp).
#include "stages/layer_name.hpp"

#include <QCoreApplication>

namespace mhaviz::ui {

QString modelLayerName(const mhaviz::model::ModelIndex& index, std::size_t layer) {
  namespace model = mhaviz::model;
  if (layer >= index.layers.size()) return QString::fromStdString(model::layer_title(index, layer));
  const model::LayerInfo& info = index.layers[layer];
  // The module path stays as the model names it; the words around it follow the language.
  QString where = QString::fromStdString(info.name);
  if (info.call > 0)
    where += QCoreApplication::translate("ModelPicture", ", call %1").arg(info.call);
  if (info.step >= 0)
    where += QCoreApplication::translate("ModelPicture", ", step %1").arg(info.step);
  return QCoreApplication::translate("ModelPicture", "layer %1 (%2)")
      .arg(model::layer_number(index, layer))
      .arg(where);
}

}  // namespace mhaviz::ui
