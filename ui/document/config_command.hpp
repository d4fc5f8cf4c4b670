#pragma once
// One undoable parameter change: the whole configuration before and after (settings are values,
// so undo is a copy). Consecutive changes of the same control merge into one command.

#include <QUndoCommand>
#include <functional>

#include "mhaviz/core/spec/config.hpp"

namespace mhaviz::ui {

class ConfigCommand : public QUndoCommand {
 public:
  /// `apply` installs a configuration (called on redo with `after`, on undo with `before`).
  /// `mergeId` identifies the control that made the change (-1: never merge).
  ConfigCommand(mhaviz::Config before, mhaviz::Config after, const QString& text, int mergeId,
                std::function<void(const mhaviz::Config&)> apply);

  void redo() override;
  void undo() override;
  [[nodiscard]] int id() const override { return m_mergeId; }
  bool mergeWith(const QUndoCommand* other) override;

  [[nodiscard]] const mhaviz::Config& before() const { return m_before; }
  [[nodiscard]] const mhaviz::Config& after() const { return m_after; }

 private:
  mhaviz::Config m_before;
  mhaviz::Config m_after;
  int m_mergeId;
  std::function<void(const mhaviz::Config&)> m_apply;
};

}  // namespace mhaviz::ui
