#pragma once
// The document: what is open in the window. Its configuration (mhaviz::Config), the user's
// tensors, how it is shown (ViewOptions), and the undo history of the configuration. Every
// editor and dock reads it from here and changes it through here; the computation
// (compute/computation.hpp) follows it. GUI thread only; no computation happens here.

#include <QObject>
#include <QString>
#include <QUndoStack>
#include <functional>
#include <memory>

#include "document/session_origin.hpp"
#include "mhaviz/core/base/tensor_map.hpp"
#include "mhaviz/core/gen/user_values.hpp"
#include "mhaviz/core/spec/config.hpp"
#include "stages/view_options.hpp"

namespace mhaviz::ui {

class Document : public QObject {
  Q_OBJECT

 public:
  explicit Document(QObject* parent = nullptr);
  ~Document() override;

  [[nodiscard]] const mhaviz::Config& config() const { return m_config; }
  [[nodiscard]] const ViewOptions& view() const { return m_view; }
  [[nodiscard]] QUndoStack* undoStack() { return &m_undo; }
  /// Tensors (PyTorch names) used instead of generated ones; null: none.
  [[nodiscard]] std::shared_ptr<const mhaviz::io::TensorMap> tensors() const { return m_tensors; }
  /// While a changeConfig is being applied: what gen::fit_to_sizes did to the generation
  /// settings for the new sizes (one sentence per line); empty otherwise.
  [[nodiscard]] QString lastFitNotes() const { return m_fitNotes; }

  /// Pushes one undoable change to `next`. `text` is what Edit > Undo shows ("Set num_heads to
  /// 4"); consecutive changes with the same `mergeId` (>= 0) merge into one command.
  void changeConfig(const mhaviz::Config& next, const QString& text, int mergeId = -1);
  /// Changes how the configuration is shown (not part of the undo history), as fitted by the
  /// view fitter (setViewFitter); emits viewChanged when that changes anything.
  void setView(const ViewOptions& view);
  /// Where the open session came from. It belongs to the tensors: replacing them ends it.
  [[nodiscard]] const SessionOrigin& origin() const { return m_origin; }
  /// The open session was replaced while its tensors stayed (File > New without tensors):
  /// sets the origin and announces it (originChanged, emitted even when it is unchanged).
  void setOrigin(const SessionOrigin& origin);
  /// Replaces the tensors, and with them the origin (empty unless given: tensors from
  /// anywhere else are no model's layer), and applies the configuration again (originChanged,
  /// then configChanged).
  void setTensors(std::shared_ptr<const mhaviz::io::TensorMap> tensors,
                  const SessionOrigin& origin = {});
  /// Applies the configuration again as it is (configChanged), e.g. to compute it again.
  void reapply();

  /// How a requested view is fitted to what can be shown (the computation installs it: batch
  /// element and head in range, stages the result has). Identity until set.
  void setViewFitter(std::function<ViewOptions(const ViewOptions&)> fit) {
    m_fitView = std::move(fit);
  }
  /// The view fitted to a result that has just arrived, taken without a viewChanged signal (the
  /// result's arrival announces it).
  void adoptView(const ViewOptions& view) { m_view = view; }

 signals:
  /// The configuration (or the tensors) changed: everything that follows it takes it anew.
  void configChanged(const mhaviz::Config& config);
  void viewChanged(const mhaviz::ui::ViewOptions& view);
  /// Something new was opened or its tensors replaced (setTensors, setOrigin): what now is
  /// open came from `origin`. The model view closes on anything that is not one of its layers.
  void originChanged(const mhaviz::ui::SessionOrigin& origin);
  /// changeConfig adapted masks, padding or labels to new sizes (gen::fit_to_sizes's notes).
  void sizesFitted(const QString& notes);

 private:
  void applyConfig(const mhaviz::Config& config);

  mhaviz::Config m_config;
  // The user's masks, padding and labels before fitting, and the config last fitted from them.
  mhaviz::gen::UserValues m_userValues;
  mhaviz::Config m_fittedFromUserValues;
  ViewOptions m_view;
  QUndoStack m_undo;
  std::shared_ptr<const mhaviz::io::TensorMap> m_tensors;
  SessionOrigin m_origin;
  QString m_fitNotes;
  std::function<ViewOptions(const ViewOptions&)> m_fitView;
};

}  // namespace mhaviz::ui
